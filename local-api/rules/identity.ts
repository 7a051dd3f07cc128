import { normalizeName } from './names.ts';

/*
 * How a person's identifiers are compared: the blocklist at the door and the recognition of a returning visitor
 * both compare these keys, never the text as typed ("529.982.247-25" and "52998224725" are one CPF).
 */

export interface PersonIds {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  cpf?: string | null | undefined;
  rg?: string | null | undefined;
  document?: string | null | undefined;
}

const orNull = (key: string): string | null => (key === '' ? null : key);

const digits = (text: string | null | undefined): string | null => orNull((text ?? '').replace(/\D/g, ''));

export const cpfKey = digits;

/** RG and other documents: letters and digits only, upper case ("MG-12.345.678" → "MG12345678"). */
export const documentKey = (text: string | null | undefined): string | null =>
  orNull(
    (text ?? '')
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]/gu, '')
      .toUpperCase(),
  );

export const emailKey = (text: string | null | undefined): string | null => orNull((text ?? '').trim().toLowerCase());

/** Fewer digits than this do not make a phone number worth comparing (a partial number matches too much). */
export const phoneTailLength = 8;

export const phoneKey = (text: string | null | undefined): string | null => {
  const key = digits(text);
  return key !== null && key.length >= phoneTailLength ? key : null;
};

/** The last digits, shared by a number written with and without its country and area codes. */
export const phoneTail = (key: string | null): string | null => (key === null ? null : key.slice(-phoneTailLength));

/**
 * Whether two phone keys are one number: equal, or one is the other with a country or area code in front
 * ("5511987654321" and "11987654321").
 */
export const samePhone = (a: string, b: string): boolean => a.endsWith(b) || b.endsWith(a);

/** The comparable keys of a person. */
export function identityKeys(person: PersonIds) {
  const phone = phoneKey(person.phone);
  return {
    cpfKey: cpfKey(person.cpf),
    rgKey: documentKey(person.rg),
    documentKey: documentKey(person.document),
    emailKey: emailKey(person.email),
    phoneKey: phone,
    phoneTail: phoneTail(phone),
  };
}

/** A person at the door as a check-in names them: the name and company typed, and the identifiers given. */
export interface PersonAtDoor extends PersonIds {
  name?: string | null | undefined;
  company?: string | null | undefined;
}

/**
 * Who a check-in is: `key` is the name and company (normalised: case, accents, punctuation and spacing), `ids` the
 * identifiers given, compared as keys.
 */
export function personIdentity(person: PersonAtDoor) {
  const keys = identityKeys(person);
  return {
    key: `${normalizeName(person.name ?? '')}|${normalizeName(person.company ?? '')}`,
    ids: { cpf: keys.cpfKey, rg: keys.rgKey, document: keys.documentKey, email: keys.emailKey, phone: keys.phoneKey },
  };
}

export type PersonIdentity = ReturnType<typeof personIdentity>;

/**
 * Whether two check-ins are one person: the same name and company, and no identifier given in both that differs.
 * Different names are never one person, whatever they share (colleagues use a team e-mail, a visitor types a
 * colleague's); a name alone does not tell two namesakes apart, an identifier does.
 */
export function samePerson(a: PersonIdentity, b: PersonIdentity): boolean {
  if (a.key !== b.key) return false;
  return (Object.keys(a.ids) as (keyof PersonIdentity['ids'])[]).every((kind) => {
    const [x, y] = [a.ids[kind], b.ids[kind]];
    if (x === null || y === null) return true;
    return kind === 'phone' ? samePhone(x, y) : x === y;
  });
}
