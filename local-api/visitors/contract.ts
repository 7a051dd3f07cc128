import { z } from 'zod';
import { cpf, email, nullableText, phone } from '../http/fields.ts';
import {
  columnKindsOf,
  contractQueryFields,
  type FieldSpec,
  fieldsWhere,
  nullableString,
  type RowOf,
  shownShape,
} from '../rules/resource-contract.ts';
import { visitorTextLimits } from '../rules/visitor.ts';

/** A field of a person's data: also sent to the gate, in its callback's `visitor`, unless `gate` is false. */
export type PersonFieldSpec = FieldSpec & { gate?: false };

const personText = <Input extends z.ZodType>(input: Input) => ({
  storage: 'text' as const,
  shown: nullableString(),
  input,
  query: true as const,
});

/**
 * The person's data a visit and a visitor record keep (the visit object's visitor fields, docs/api.md, "Visits"):
 * a check-in's `visitor` writes them.
 */
export const personFields = {
  name: personText(z.string().trim().min(1).max(visitorTextLimits.name)),
  email: personText(email().nullable()),
  phone: personText(phone().nullable()),
  cpf: personText(cpf().nullable()),
  rg: personText(nullableText(visitorTextLimits.rg)),
  document: personText(nullableText(visitorTextLimits.document)),
  company: personText(nullableText(visitorTextLimits.company)),
  position: personText(nullableText(visitorTextLimits.position)),
  sector: personText(nullableText(visitorTextLimits.sector)),
  // The gate callback's `visitor` says who is at the gate (docs/access-control.md); its `visit` has the address.
  address: { ...personText(nullableText(visitorTextLimits.address)), gate: false as const },
} satisfies Readonly<Record<string, PersonFieldSpec>>;

export const visitorDataFields = fieldsWhere(personFields, () => true);

/** The person's fields the gate callback's `visitor` carries: all but those marked `gate: false`. */
export const gateFieldsOf = <F extends Readonly<Record<string, PersonFieldSpec>>>(fields: F) =>
  fieldsWhere(fields, (spec) => spec.gate !== false);

export const gateVisitorFields = gateFieldsOf(personFields);

/** A visitor record: who came (recognized by the keys of their identifiers), with the data of their latest visit. */
export const visitorFields = {
  id: { storage: 'text', required: true, shown: z.string().describe('32 characters'), query: true },
  companyId: { storage: 'text', required: true },
  createdAt: { storage: 'time', required: true, shown: z.string(), query: true },
  updatedAt: { storage: 'time', required: true, shown: z.string(), query: true },
  deletedAt: { storage: 'time', shown: nullableString(), query: true },
  ...personFields,
  lastVisitAt: { storage: 'time', shown: nullableString(), query: true },
  visitCount: { storage: 'number', required: true, shown: z.number().int(), query: true },
  emailKey: { storage: 'text' },
  cpfKey: { storage: 'text' },
  documentKey: { storage: 'text' },
  rememberConsent: {
    storage: 'boolean',
    shown: z
      .boolean()
      .nullable()
      .describe('whether the visitor said yes to being remembered (found again at the kiosk), or null if never asked'),
    query: true,
  },
  rememberConsentAt: { storage: 'time', shown: nullableString().describe('when they last answered'), query: true },
  lastHostId: { storage: 'text', shown: nullableString().describe('the host of their latest visit') },
  phoneKey: { storage: 'text' },
  phoneTail: { storage: 'text' },
} satisfies Readonly<Record<string, FieldSpec>>;

export type VisitorRow = RowOf<typeof visitorFields>;

export const visitorColumns = columnKindsOf(visitorFields);

export const visitorQueryFields = contractQueryFields(visitorFields);

/** A visitor: who came, with the data of their latest visit, and how often they came. */
export const visitorObjectShape = { ...shownShape(visitorFields), type: z.literal('visitor') };
