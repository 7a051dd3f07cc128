import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brandContrast, hexColorPattern, minimumContrast } from '../../../local-api/rules/contrast.ts';
import { languages } from '../i18n/index.ts';
import { Refusal } from '../problems.ts';
import type { Company } from '../types.ts';
import { type PictureKind, PictureSection } from './CompanySection.tsx';
import { Section, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

type Props = Pick<SettingsProps, 'api' | 'onSettings'> & { company: Company };

/** What a typed colour is: none (the kiosk's own), not a colour yet, or a colour and the contrast of white on it. */
function colourVerdict(typed: string): { kind: 'none' } | { kind: 'malformed' } | { kind: 'colour'; contrast: number } {
  const colour = typed.trim();
  if (colour === '') return { kind: 'none' };
  if (!hexColorPattern.test(colour)) return { kind: 'malformed' };
  return { kind: 'colour', contrast: brandContrast(colour) };
}

/**
 * The company's brand on the kiosk's welcome (a self-contained part of the settings, at the desk and in the
 * console): a colour, checked as it is typed against the white text the kiosk writes on it (a colour that fails WCAG
 * AA is refused here and by the service), a welcome message per language, and a welcome picture uploaded to the
 * service (PUT /v1/company/welcome). Without them the kiosk keeps its own look.
 */
export function BrandSection({ api, company, onSettings }: Props) {
  const { t } = useTranslation();
  const [colour, setColour] = useState(company.brandColor ?? '');
  const [messages, setMessages] = useState<Partial<Record<string, string>>>(company.localizedWelcomeMessage ?? {});
  const { busy, notice, run } = useAction();
  const swatch = useRef<HTMLSpanElement>(null);
  const verdict = colourVerdict(colour);

  // The sample is painted through the CSSOM: the page's CSP allows no style attributes.
  useEffect(() => {
    if (verdict.kind === 'colour') swatch.current?.style.setProperty('--swatch', colour.trim());
    else swatch.current?.style.removeProperty('--swatch');
  }, [verdict.kind, colour]);

  const save = () =>
    run(async () => {
      if (verdict.kind === 'malformed') throw new Refusal(t('brand.colourFormat'));
      if (verdict.kind === 'colour' && verdict.contrast < minimumContrast) {
        throw new Refusal(t('errors.BRAND_COLOR_CONTRAST', { contrast: verdict.contrast, minimum: minimumContrast }));
      }
      // Every language is sent: '' removes one the staff emptied (the service merges language by language).
      const localizedWelcomeMessage = Object.fromEntries(languages.map((l) => [l.code, messages[l.code] ?? '']));
      await api.send('PATCH', '/v1/company', {
        brandColor: verdict.kind === 'colour' ? colour.trim() : null,
        localizedWelcomeMessage,
      });
      onSettings();
      return t('common.saved');
    });

  return (
    <>
      <Section title={t('brand.title')} onSave={save} saveLabel={t('common.save')} busy={busy} notice={notice}>
        <TextInput label={t('brand.colour')} optional value={colour} maxLength={7} onChange={setColour} />
        <p className="brand-sample" aria-live="polite">
          <span ref={swatch} className="brand-swatch" aria-hidden="true">
            Aa
          </span>{' '}
          {verdict.kind === 'none' && t('brand.colourNone')}
          {verdict.kind === 'malformed' && t('brand.colourFormat')}
          {verdict.kind === 'colour' &&
            (verdict.contrast >= minimumContrast
              ? t('brand.contrastPasses', { contrast: verdict.contrast })
              : t('errors.BRAND_COLOR_CONTRAST', { contrast: verdict.contrast, minimum: minimumContrast }))}
        </p>
        {languages.map((language) => (
          <TextInput
            key={language.code}
            label={t('brand.message', { language: language.name })}
            optional
            maxLength={300}
            value={messages[language.code] ?? ''}
            onChange={(text) => setMessages({ ...messages, [language.code]: text })}
          />
        ))}
      </Section>
      <WelcomePicture api={api} company={company} onSettings={onSettings} />
    </>
  );
}

/** The welcome screen's picture, kept and served by the service so it shows offline. */
function WelcomePicture(props: Props) {
  const { t } = useTranslation();
  const kind: PictureKind = {
    path: '/v1/company/welcome',
    field: 'welcomeImageUrl',
    id: 'welcome-picture',
    text: {
      title: t('brand.picture'),
      alt: t('brand.picture'),
      none: t('brand.noPicture'),
      file: t('brand.pictureFile'),
      saved: t('brand.pictureSaved'),
      removed: t('brand.pictureRemoved'),
      remove: t('brand.removePicture'),
    },
  };
  return <PictureSection {...props} kind={kind} />;
}
