import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { formatInZone } from '../rules/time.ts';
import type { ColumnKinds } from './columns.ts';
import type { Db, SqlStatement } from './db.ts';

type Row = Record<string, unknown>;

type Conversion = 'boolean' | 'json' | 'time';
const conversionCache = new WeakMap<ColumnKinds, ReadonlyMap<string, Conversion>>();

function conversionsOf(kinds: ColumnKinds): ReadonlyMap<string, Conversion> {
  let conversions = conversionCache.get(kinds);
  if (!conversions) {
    conversions = new Map<string, Conversion>([
      ...kinds.booleans.map((key) => [key, 'boolean'] as const),
      ...kinds.json.map((key) => [key, 'json'] as const),
      ...kinds.times.map((key) => [key, 'time'] as const),
    ]);
    conversionCache.set(kinds, conversions);
  }
  return conversions;
}

/**
 * Stored row → interface object: 0/1 → booleans, JSON text → values, milliseconds → ISO in the caller's zone;
 * the `hidden` columns (companyId, deletedAt…) left out. One pass and one new object: a list builds a thousand.
 */
export function rowToObject(row: Row, kinds: ColumnKinds, timeZone: string, hidden: readonly string[] = []): Row {
  const conversions = conversionsOf(kinds);
  const object: Row = {};
  for (const key in row) {
    if (hidden.includes(key)) continue;
    const value = row[key];
    const conversion = value === null ? undefined : conversions.get(key);
    if (conversion === 'boolean') object[key] = value === 1;
    else if (conversion === 'json' && typeof value === 'string') object[key] = JSON.parse(value) as unknown;
    else if (conversion === 'time' && typeof value === 'number') object[key] = formatInZone(value, timeZone);
    else object[key] = value;
  }
  return object;
}

/** Interface values → stored values (booleans → 0/1, structures → JSON); times are already milliseconds. */
export function objectToRow(values: Row, kinds: ColumnKinds): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (kinds.booleans.includes(key) && typeof value === 'boolean') row[key] = value ? 1 : 0;
    else if (kinds.json.includes(key)) row[key] = value === null ? null : JSON.stringify(value);
    else row[key] = value;
  }
  return row;
}

/** The list-query fields of a table's plain columns: text, booleans and times (JSON columns are not queryable). */
export function queryFieldsOf(textColumns: readonly string[], kinds: ColumnKinds): QueryFields {
  const fields: Record<string, QueryFields[string]> = {};
  for (const column of textColumns) fields[column] = { kind: 'text' };
  for (const column of kinds.booleans) fields[column] = { kind: 'boolean' };
  for (const column of kinds.times) fields[column] = { kind: 'timestamp' };
  return fields;
}

/** Prepares each distinct SQL text once per connection: list queries are built from a small set of shapes. */
export function prepared(db: Db, sql: string): SqlStatement {
  let statement = db.statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    db.statements.set(sql, statement);
  }
  return statement;
}

/** A column name as SQL: quoted, since API field names include keywords (a meeting's `end`). */
const column = (name: string): string => `"${name}"`;

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.map(column).join(', ')}) VALUES (${columns.map((c) => `:${c}`).join(', ')})`;

export async function insertRow(db: Db, table: string, row: Row): Promise<void> {
  await prepared(db, insertSql(table, Object.keys(row))).run(row);
}

/** Inserts a row and answers it as stored, its defaults filled in: the write need not read it back. */
export async function insertReturningRow<T>(db: Db, table: string, row: Row): Promise<T> {
  return (await prepared(db, `${insertSql(table, Object.keys(row))} RETURNING *`).get(row)) as T;
}

/** An SQL condition with its named parameters, added to a query's own: a caller's scope (credentials/guests.ts). */
export interface Condition {
  sql: string;
  params: Record<string, string>;
}

/**
 * One live row of a company's table by id; another company's row is as absent as a deleted one, and so is a row
 * outside `scope` when one is given.
 */
export async function findLiveRow<T>(
  db: Db,
  table: string,
  companyId: string,
  id: string,
  scope?: Condition,
): Promise<T | undefined> {
  if (scope) {
    const sql = `SELECT * FROM ${table} WHERE id = :id AND companyId = :companyId AND deletedAt IS NULL AND ${scope.sql}`;
    return (await prepared(db, sql).get({ ...scope.params, id, companyId })) as T | undefined;
  }
  return (await prepared(db, `SELECT * FROM ${table} WHERE id = ? AND companyId = ? AND deletedAt IS NULL`).get(
    id,
    companyId,
  )) as T | undefined;
}

/** Updates the given columns of one live row of the caller's company; returns whether a row changed. */
export async function updateRow(db: Db, table: string, companyId: string, id: string, row: Row): Promise<boolean> {
  const columns = Object.keys(row);
  if (columns.length === 0) return true;
  const sql = `UPDATE ${table} SET ${columns.map((c) => `${column(c)} = :${c}`).join(', ')}
    WHERE id = :__id AND companyId = :__companyId AND deletedAt IS NULL`;
  return (await prepared(db, sql).run({ ...row, __id: id, __companyId: companyId })).changes === 1;
}

/** The SQL of one page of a company's live rows (its parameters: `listParameters`). */
export function listSql(table: string, query: ListQuery): string {
  const where = query.where ? `AND ${query.where}` : '';
  return `SELECT * FROM ${table} WHERE companyId = :companyId AND deletedAt IS NULL ${where}
    ORDER BY ${query.orderBy} LIMIT :limit OFFSET :offset`;
}

export const listParameters = (companyId: string, query: ListQuery) => ({
  ...query.params,
  companyId,
  limit: query.limit,
  offset: query.offset,
});

/** One page of a company's live rows, filtered and ordered as the list query says, within `scope` if given. */
export async function listRows<T>(
  db: Db,
  table: string,
  companyId: string,
  query: ListQuery,
  scope?: Condition,
): Promise<T[]> {
  const scoped = scope
    ? {
        ...query,
        where: query.where ? `${scope.sql} AND ${query.where}` : scope.sql,
        params: { ...query.params, ...scope.params },
      }
    : query;
  return (await prepared(db, listSql(table, scoped)).all(listParameters(companyId, scoped))) as T[];
}

/**
 * A company's rows of one table by id, deleted ones included (an object still names what it referred to), for a
 * whole page of objects at once; in chunks, since SQLite limits the parameters of one statement.
 */
export async function rowsByIds<T>(
  db: Db,
  table: string,
  columns: string,
  companyId: string,
  ids: Iterable<unknown>,
): Promise<T[]> {
  const unique = [...new Set([...ids].filter((id): id is string => typeof id === 'string'))];
  const rows: T[] = [];
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    // Found by primary key; `+companyId` only checks the company (the unary + keeps SQLite from walking the
    // company's index instead, every row of it, which it otherwise prefers for more than one id). PostgreSQL has
    // no unary + on text, and its planner needs no such hint.
    const company = db.sqlite ? '+companyId' : 'companyId';
    const sql = `SELECT ${columns} FROM ${table} WHERE ${company} = ? AND id IN (${chunk.map(() => '?').join(', ')})`;
    rows.push(...((await prepared(db, sql).all(companyId, ...chunk)) as T[]));
  }
  return rows;
}

/** A LIKE pattern finding `text` anywhere, its own wildcards meant literally (the SQL adds ESCAPE with a backslash). */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/*
 * The few expressions the engines spell differently, for SQL otherwise written once.
 */

/**
 * A JSON array of strings, sent as one parameter, as a table of one text column `value` (the elements): SQLite's
 * `json_each`; PostgreSQL's `json_each` answers json values, its `json_array_elements_text` text.
 */
export const jsonTextElements = (db: Db, parameter: string): string =>
  db.sqlite ? `json_each(${parameter})` : `json_array_elements_text(CAST(${parameter} AS json)) AS elements (value)`;

/** Where `needle` starts in `text`, from 1, or 0 if it is not there: SQLite's `instr`, PostgreSQL's `strpos`. */
export const textPosition = (db: Db, text: string, needle: string): string =>
  `${db.sqlite ? 'instr' : 'strpos'}(${text}, ${needle})`;
