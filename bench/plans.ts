/**
 * Which list-query fields have no index to answer them: EXPLAIN QUERY PLAN of `GET /v1/<list>?queryKey=<field>`
 * for every queryable field, on a seeded database. A field is answered by an index when the plan searches an
 * index on (companyId, field) and needs no sort; otherwise the request reads every row of the company.
 */
import Database from 'better-sqlite3';
import { hostQueryFields } from '../local-api/hosts/store.ts';
import { type ListQuery, parseListQuery, type QueryFields } from '../local-api/http/list-query.ts';
import { inviteeQueryFields } from '../local-api/invitees/store.ts';
import { listParameters, listSql } from '../local-api/store/rows.ts';
import { visitQueryFields } from '../local-api/visits/store.ts';

const lists: readonly { table: string; fields: QueryFields }[] = [
  { table: 'hosts', fields: hostQueryFields },
  { table: 'invitees', fields: inviteeQueryFields },
  { table: 'visits', fields: visitQueryFields },
];

const sampleValues = { text: 'x', number: '1', boolean: 'true', timestamp: '1700000000' } as const;

export interface UnindexedField {
  list: string;
  field: string;
  plan: string;
}

export function unindexedQueryFields(dbFile: string, companyId: string): UnindexedField[] {
  const db = new Database(dbFile, { readonly: true });
  const found: UnindexedField[] = [];
  try {
    for (const { table, fields } of lists) {
      for (const [key, field] of Object.entries(fields)) {
        const value = field.values ? (Object.keys(field.values)[0] ?? '') : sampleValues[field.kind];
        const query: ListQuery = parseListQuery(
          { queryKey: key, queryOp: '==', queryValue: value },
          { defaultLimit: 500, maxLimit: 500 },
          fields,
        );
        const plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${listSql(table, query)}`).all(listParameters(companyId, query)) as {
            detail: string;
          }[]
        ).map((row) => row.detail);
        const column = field.related?.foreignKey ?? field.column ?? key;
        const searched =
          column === 'companyId' ||
          plan.some((d) => d.includes(`(companyId=? AND ${column}`) || d.includes(`(${column}=?)`));
        if (!searched || plan.some((d) => d.includes('TEMP B-TREE'))) {
          found.push({ list: table, field: key, plan: plan.join('; ') });
        }
      }
    }
  } finally {
    db.close();
  }
  return found;
}
