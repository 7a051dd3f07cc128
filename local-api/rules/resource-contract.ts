import { z } from 'zod';
import type { FieldKind, QueryFields } from '../http/list-query.ts';
import type { ColumnKinds } from '../store/columns.ts';

/*
 * A resource written once: each stored field with how it is stored, how the API object shows it, whether a
 * client writes it and whether a list can be queried by it. The schemas, the column kinds, the list-query fields
 * and the row type are derived from that one table (docs/api.md, "Resource contracts"), so a new field is one
 * line of its resource's contract and a migration.
 */

/** How a column is stored: text, 0/1, JSON text, milliseconds since the epoch, or a number. */
export type Storage = 'text' | 'boolean' | 'json' | 'time' | 'number';

export interface FieldSpec {
  storage: Storage;
  /** The column is NOT NULL. */
  required?: true;
  /** The only texts it stores (the row type says so). */
  values?: readonly string[];
  /** Its type in the API object; absent: stored, never shown (the company, a file's name on disk…). */
  shown?: z.ZodType;
  /** Its type in a request, when a client writes it: at creation, and at update unless `update` is false. */
  input?: z.ZodType;
  update?: false;
  /** A list is queryable by it (`queryKey`), compared as its storage says; `queryValues` maps API to stored. */
  query?: true;
  queryValues?: Readonly<Record<string, string>>;
}

export type Fields = Readonly<Record<string, FieldSpec>>;

type Stored<S extends FieldSpec> = S['storage'] extends 'text'
  ? S extends { values: readonly (infer V)[] }
    ? V
    : string
  : S['storage'] extends 'json'
    ? string
    : number;

/** A stored row of the resource, as the driver returns it (booleans as 0/1, times as milliseconds, JSON as text). */
export type RowOf<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends { required: true } ? Stored<F[K]> : Stored<F[K]> | null;
};

type ShownShape<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends { shown: z.ZodType } ? K : never]: F[K] extends {
    shown: infer T extends z.ZodType;
  }
    ? T
    : never;
};

type InputShape<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends { input: z.ZodType } ? K : never]: F[K] extends {
    input: infer T extends z.ZodType;
  }
    ? T
    : never;
};

type UpdateShape<F extends Fields> = {
  -readonly [K in keyof InputShape<F> as F[K & keyof F] extends { update: false } ? never : K]: InputShape<F>[K];
};

const entries = <F extends Fields>(fields: F) => Object.entries(fields) as [keyof F & string, F[keyof F]][];

/** The names of the fields `keep` selects, in the contract's order. */
export const fieldsWhere = <F extends Fields>(fields: F, keep: (spec: F[keyof F]) => boolean): (keyof F & string)[] =>
  entries(fields)
    .filter(([, spec]) => keep(spec))
    .map(([name]) => name);

/** The fields the API object shows, with their types: the response schema's stored part. */
export function shownShape<F extends Fields>(fields: F): ShownShape<F> {
  return Object.fromEntries(
    entries(fields).flatMap(([name, spec]) => (spec.shown ? [[name, spec.shown]] : [])),
  ) as ShownShape<F>;
}

/** The fields a client writes at creation, with their request types. */
export function createShape<F extends Fields>(fields: F): InputShape<F> {
  return Object.fromEntries(
    entries(fields).flatMap(([name, spec]) => (spec.input ? [[name, spec.input]] : [])),
  ) as InputShape<F>;
}

/** The fields a client writes in an update, with their request types. */
export function updateShape<F extends Fields>(fields: F): UpdateShape<F> {
  return Object.fromEntries(
    entries(fields).flatMap(([name, spec]) => (spec.input && spec.update !== false ? [[name, spec.input]] : [])),
  ) as UpdateShape<F>;
}

/** How the store converts the resource's columns (store/rows.ts). */
export function columnKindsOf(fields: Fields): ColumnKinds {
  const of = (storage: Storage) => fieldsWhere(fields, (spec) => spec.storage === storage);
  return { booleans: of('boolean'), json: of('json'), times: of('time') };
}

const queryKinds: Readonly<Record<Exclude<Storage, 'json'>, FieldKind>> = {
  text: 'text',
  boolean: 'boolean',
  time: 'timestamp',
  number: 'number',
};

/** The list-query fields of the resource: each queryable field compared as it is stored. */
export function contractQueryFields(fields: Fields): QueryFields {
  return Object.fromEntries(
    entries(fields).flatMap(([name, spec]) =>
      spec.query && spec.storage !== 'json'
        ? [[name, { kind: queryKinds[spec.storage], ...(spec.queryValues ? { values: spec.queryValues } : {}) }]]
        : [],
    ),
  );
}

/** Text or null, as the API object shows ids, names and dates. */
export const nullableString = () => z.string().nullable();
