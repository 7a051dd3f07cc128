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
