import { cpfKey, documentKey, emailKey, phoneKey, samePhone } from '../rules/identity.ts';

/**
 * A person as erasure and export find them: by what they can prove. An e-mail, a CPF or a document names a person
 * alone; a name does only with a phone number (many people share a name, few share it with a phone).
 */
export interface PersonIdentifiers {
  email?: string | undefined;
  cpf?: string | undefined;
  document?: string | undefined;
  name?: string | undefined;
  phone?: string | undefined;
}

/** The comparable keys of a person, grown as their rows are found (a visit found by CPF gives its e-mail too). */
export interface Person {
  emails: Set<string>;
  cpfs: Set<string>;
  documents: Set<string>;
  /** Name keys, each with the phone keys it was given with. */
  namePhones: Map<string, Set<string>>;
}

/** A name compared without accents, case or repeated spaces ("José  da Silva" is "jose da silva"). */
export const nameKey = (text: unknown): string | null => {
  if (typeof text !== 'string') return null;
  const key = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  return key === '' ? null : key;
};

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A person's keys from the identifiers given; undefined when they name nobody (a name alone, a phone alone). */
export function personOf(who: PersonIdentifiers): Person | undefined {
  const person: Person = { emails: new Set(), cpfs: new Set(), documents: new Set(), namePhones: new Map() };
  const name = nameKey(who.name);
  const phone = phoneKey(who.phone);
  const email = emailKey(who.email);
  const cpf = cpfKey(who.cpf);
  const document = documentKey(who.document);
  if (email) person.emails.add(email);
  if (cpf) person.cpfs.add(cpf);
  if (document) person.documents.add(document);
  if (name && phone) person.namePhones.set(name, new Set([phone]));
  const named = person.emails.size + person.cpfs.size + person.documents.size + person.namePhones.size;
  return named > 0 ? person : undefined;
}

/** Whether a row (an invitee, a visit, a visitor record, a blocklist entry) is the person's. */
export function isPersonsRow(person: Person, row: Record<string, unknown>): boolean {
  const email = emailKey(str(row.email));
  if (email && person.emails.has(email)) return true;
  const cpf = cpfKey(str(row.cpf));
  if (cpf && person.cpfs.has(cpf)) return true;
  for (const column of ['document', 'rg']) {
    const document = documentKey(str(row[column]));
    if (document && person.documents.has(document)) return true;
  }
  const name = nameKey(row.name);
  const phone = phoneKey(str(row.phone));
  const phones = name ? person.namePhones.get(name) : undefined;
  return phone !== null && phones !== undefined && [...phones].some((known) => samePhone(known, phone));
}

/** Adds the identifiers a row of the person holds; answers whether any was new (so another pass may find more). */
export function learnFrom(person: Person, row: Record<string, unknown>): boolean {
  let learned = false;
  const add = (set: Set<string>, key: string | null) => {
    if (key && !set.has(key)) {
      set.add(key);
      learned = true;
    }
  };
  add(person.emails, emailKey(str(row.email)));
  add(person.cpfs, cpfKey(str(row.cpf)));
  add(person.documents, documentKey(str(row.document)));
  add(person.documents, documentKey(str(row.rg)));
  const name = nameKey(row.name);
  const phone = phoneKey(str(row.phone));
  if (name && phone) {
    const phones = person.namePhones.get(name) ?? new Set<string>();
    person.namePhones.set(name, phones);
    add(phones, phone);
  }
  return learned;
}

/** The columns whose text says who a person is, looked for in free text (messages, titles, queued deliveries). */
const tellingColumns = ['name', 'email', 'phone', 'cpf', 'rg', 'document', 'address'] as const;

/** Shorter text is not looked for inside other text: it would match too much that is not the person's. */
export const minTellingLength = 4;

/** The texts that would tell the person in other text: as typed in their rows, and CPF and phone as bare digits. */
export function tellingValues(rows: readonly Record<string, unknown>[]): string[] {
  const values = new Set<string>();
  for (const row of rows) {
    for (const column of tellingColumns) {
      const value = str(row[column])?.trim();
      if (!value || value.length < minTellingLength) continue;
      values.add(value);
      if (column === 'cpf' || column === 'phone') {
        const digits = value.replace(/\D/g, '');
        if (digits.length >= minTellingLength) values.add(digits);
      }
    }
  }
  // Longest first, so a name is replaced whole before a part of it that is also a value.
  return [...values].sort((a, b) => b.length - a.length);
}

export const redactedMark = '[erased]';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces every occurrence of the values in the text, without regard to case. */
export function redactText(text: string, values: readonly string[]): string {
  if (values.length === 0) return text;
  const pattern = new RegExp(values.map(escapeRegExp).join('|'), 'giu');
  return text.replace(pattern, redactedMark);
}

export function mentionsAny(text: string, values: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return values.some((value) => lower.includes(value.toLowerCase()));
}

/**
 * Redacts the values in every string of a JSON value; a string that holds JSON itself (a webhook's signed body)
 * is redacted as JSON and written back as JSON, so it stays parseable.
 */
export function redactJson(value: unknown, values: readonly string[]): unknown {
  if (typeof value === 'string') {
    if (/^\s*[[{]/.test(value)) {
      try {
        return JSON.stringify(redactJson(JSON.parse(value) as unknown, values));
      } catch {
        return redactText(value, values);
      }
    }
    return redactText(value, values);
  }
  if (Array.isArray(value)) return value.map((item) => redactJson(item, values));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactJson(item, values)]));
  }
  return value;
}
