import { z } from 'zod';
import { ApiError } from './errors.ts';

export type FieldKind = 'text' | 'number' | 'timestamp' | 'boolean';

export interface QueryField {
  kind: FieldKind;
  /** SQL expression compared with the value; defaults to the column of the field's name. */
  column?: string;
  /** Allowed API values and what is stored for each (`waiting` → `AWAITING`). */
  values?: Readonly<Record<string, string>>;
  /**
   * For a field of a related row (an invitee's `hostName`): SQL that selects the ids the list's `foreignKey`
   * must be in, with `:companyId` and the comparison given.
   */
  related?: { foreignKey: string; select: (comparison: string) => string };
}

export type QueryFields = Readonly<Record<string, QueryField>>;

export interface ListPaging {
  defaultLimit: number;
  maxLimit: number;
}

export interface ListQuery {
  limit: number;
  offset: number;
  /** An SQL condition ('' for none) using the named parameters in `params`. */
  where: string;
  orderBy: string;
  params: Record<string, string | number>;
}

const operators = new Set(['<', '<=', '==', '>', '>=']);

function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : ''; // repeated or nested parameters are invalid, not ignored
}

function wholeNumber(text: string | undefined, fallback: number, min: number, max: number): number | undefined {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** Turns the typed query value into the value(s) the stored column compares with. */
function storedValue(field: QueryField, text: string): string | number | undefined {
  switch (field.kind) {
    case 'text':
      if (field.values) return field.values[text];
      return text;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : undefined;
    case 'boolean':
      return text === 'true' ? 1 : text === 'false' ? 0 : undefined;
    case 'timestamp':
      // Unix seconds; stored times are milliseconds.
      return /^-?\d+$/.test(text.trim()) ? Number(text) * 1000 : undefined;
  }
}

/** Reads `limit` alone, for endpoints that page by cursor rather than by offset. */
export function parseLimit(query: Record<string, unknown>, paging: ListPaging): number {
  const limit = wholeNumber(single(query.limit), paging.defaultLimit, 1, paging.maxLimit);
  if (limit === undefined) throw new ApiError('INVALID_LIMIT_VALUE');
  return limit;
}

/**
 * Reads `limit`, `offset`, `queryKey`, `queryOp`, `queryValue` of a list request. Pure: it returns the SQL pieces
 * (a comparison on one field, its ordering) and throws the interface's error codes. `creation` is the column that
 * numbers the table's rows in the order they were made: the rowid (migration 0017 gives PostgreSQL's listed tables
 * one), or the table's own numbered key.
 */
export function parseListQuery(
  query: Record<string, unknown>,
  paging: ListPaging,
  fields: QueryFields,
  creation = 'rowid',
): ListQuery {
  const limit = parseLimit(query, paging);
  const offset = wholeNumber(single(query.offset), 0, 0, Number.MAX_SAFE_INTEGER);
  if (offset === undefined) throw new ApiError('INVALID_OFFSET_VALUE');

  const key = single(query.queryKey);
  const op = single(query.queryOp);
  const value = single(query.queryValue);
  if (key === undefined && op === undefined && value === undefined) {
    return { limit, offset, where: '', orderBy: creation, params: {} };
  }
  const field = key !== undefined && Object.hasOwn(fields, key) ? fields[key] : undefined;
  if (!field || key === undefined) throw new ApiError('INVALID_QUERY_KEY');
  if (op === undefined || !operators.has(op)) throw new ApiError('INVALID_QUERY_OPERATOR');
  if (value === undefined) throw new ApiError('INVALID_QUERY_VALUE');
  const stored = storedValue(field, value);
  if (stored === undefined) throw new ApiError('INVALID_QUERY_VALUE');

  const sqlOp = op === '==' ? '=' : op;
  if (field.related) {
    // Ordered by the foreign key first, as the index on it is: the page is read in index order and stops at the
    // limit. Ordered by creation alone, SQLite would walk every row of the company to skip the sort.
    const { foreignKey } = field.related;
    return {
      limit,
      offset,
      where: `${foreignKey} IN (${field.related.select(`${sqlOp} :value`)})`,
      orderBy: `${foreignKey}, ${creation}`,
      params: { value: stored },
    };
  }
  const column = field.column ?? key;
  if (field.kind === 'timestamp' && typeof stored === 'number') {
    // Compare at the precision of the query, whole seconds: `== t` is the second [t, t+1).
    const end = stored + 1000;
    const where = {
      '<': `${column} < :value`,
      '<=': `${column} < :end`,
      '==': `${column} >= :value AND ${column} < :end`,
      '>': `${column} >= :end`,
      '>=': `${column} >= :value`,
    }[op as '<' | '<=' | '==' | '>' | '>='];
    return { limit, offset, where, orderBy: `${column}, ${creation}`, params: { value: stored, end } };
  }
  return {
    limit,
    offset,
    where: `${column} ${sqlOp} :value`,
    orderBy: `${column}, ${creation}`,
    params: { value: stored },
  };
}

/** The list parameters as the OpenAPI document shows them. */
export const listQueryInput = (paging: ListPaging) =>
  z.object({
    limit: z.int().min(1).max(paging.maxLimit).optional().describe(`default ${paging.defaultLimit}`),
    offset: z.int().min(0).optional().describe('default 0'),
    queryKey: z.string().optional().describe('a queryable field'),
    queryOp: z.enum(['<', '<=', '==', '>', '>=']).optional(),
    queryValue: z.string().optional().describe('compared with the field, typed by the field'),
  });

/** The errors every list answers for bad list parameters. */
export const listQueryErrors = [
  'INVALID_LIMIT_VALUE',
  'INVALID_OFFSET_VALUE',
  'INVALID_QUERY_KEY',
  'INVALID_QUERY_OPERATOR',
  'INVALID_QUERY_VALUE',
] as const;
