import type { FieldMode, VisitorFieldName } from '../kiosk/schema.ts';
import type { Language } from '../rules/lang.ts';

/*
 * What a visitor type asks, decided in one place. Pure (no zod, no database): the service, which applies a type's
 * approval rule and required fields at check-in, and the kiosk's page, which chooses the steps it shows, read the
 * same rules.
 */

export type Localized = Partial<Record<Language, string>>;

/** The rules of a type as stored: null (or absent) means "as the kiosk's settings say". */
export interface TypeRules {
  visitorFields?: Partial<Record<VisitorFieldName, FieldMode>>;
  customFieldIds?: readonly string[] | null;
  ndaText?: string | null;
  localizedNdaText?: Localized;
  pictureMode?: FieldMode | null;
  requireAuthorization?: boolean | null;
}

/** The kiosk's settings that a type may override. */
export interface KioskRules {
  visitorFields: Record<VisitorFieldName, FieldMode>;
  pictureMode: FieldMode;
  ndaText: string;
  localizedNdaText?: Localized;
  requireAuthorization: boolean;
}

export interface EffectiveRules {
  visitorFields: Record<VisitorFieldName, FieldMode>;
  pictureMode: FieldMode;
  /** The agreement to sign ('' for none). */
  ndaText: string;
  requireAuthorization: boolean;
  /** The custom fields and questions asked; null: all of the company's. */
  customFieldIds: readonly string[] | null;
}

/** A text in the visitor's language, else the default one. */
export const inLanguage = (texts: Localized | undefined, lang: string, fallback: string): string =>
  texts?.[lang as Language]?.trim() || fallback;

/** The rules a visitor of this type meets: the type's where it has one, the kiosk's elsewhere. */
export function effectiveRules(type: TypeRules | undefined, kiosk: KioskRules, lang: string): EffectiveRules {
  const ownNda = type?.ndaText;
  return {
    visitorFields: { ...kiosk.visitorFields, ...(type?.visitorFields ?? {}) },
    pictureMode: type?.pictureMode ?? kiosk.pictureMode,
    ndaText:
      ownNda === null || ownNda === undefined
        ? inLanguage(kiosk.localizedNdaText, lang, kiosk.ndaText)
        : ownNda === ''
          ? ''
          : inLanguage(type?.localizedNdaText, lang, ownNda),
    requireAuthorization: type?.requireAuthorization ?? kiosk.requireAuthorization,
    customFieldIds: type?.customFieldIds ?? null,
  };
}

/** Whether a custom field (or question) is asked of this type's visitors. */
export const asksField = (rules: Pick<EffectiveRules, 'customFieldIds'>, customFieldId: string): boolean =>
  rules.customFieldIds === null || rules.customFieldIds.includes(customFieldId);

export interface Preset extends TypeRules {
  localizedName: Required<Localized>;
  localizedBadgeLabel: Required<Localized>;
}

const allOff: Partial<Record<VisitorFieldName, FieldMode>> = {
  email: 'off',
  phone: 'off',
  cpf: 'off',
  rg: 'off',
  document: 'off',
  position: 'off',
  sector: 'off',
  address: 'off',
};

/** The four kinds the kiosk knows: their names and badge labels in every language, and sensible rules. */
export const presets: Readonly<Record<'guest' | 'interview' | 'contractor' | 'delivery', Preset>> = {
  guest: {
    localizedName: { en: 'Guest', 'pt-BR': 'Visitante', de: 'Gast', 'zh-Hans': '访客' },
    localizedBadgeLabel: { en: 'Visitor', 'pt-BR': 'Visitante', de: 'Besucher', 'zh-Hans': '访客' },
  },
  interview: {
    localizedName: {
      en: 'Job interview',
      'pt-BR': 'Entrevista de emprego',
      de: 'Vorstellungsgespräch',
      'zh-Hans': '面试',
    },
    localizedBadgeLabel: { en: 'Candidate', 'pt-BR': 'Candidato', de: 'Bewerbung', 'zh-Hans': '应聘者' },
    visitorFields: { email: 'required', phone: 'optional' },
  },
  contractor: {
    localizedName: { en: 'Contractor', 'pt-BR': 'Prestador de serviço', de: 'Dienstleister', 'zh-Hans': '承包商' },
    localizedBadgeLabel: { en: 'Contractor', 'pt-BR': 'Prestador', de: 'Dienstleister', 'zh-Hans': '承包商' },
    visitorFields: { company: 'required', document: 'required' },
    pictureMode: 'required',
  },
  delivery: {
    localizedName: { en: 'Delivery', 'pt-BR': 'Entrega', de: 'Lieferung', 'zh-Hans': '送货' },
    localizedBadgeLabel: { en: 'Delivery', 'pt-BR': 'Entrega', de: 'Lieferung', 'zh-Hans': '送货' },
    visitorFields: { ...allOff, company: 'required' },
    customFieldIds: [],
    ndaText: '',
    pictureMode: 'off',
    requireAuthorization: false,
  },
};
