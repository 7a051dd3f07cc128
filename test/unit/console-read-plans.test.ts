/**
 * The console's first reads stay index reads however many visits the company has (docs/benchmarks.md, "Console
 * pages' first answers"): SQLite's plan of each statement the front desk's counts, the roster and the approvals'
 * list send. Without statistics SQLite plans from the schema alone, so a small database plans as a large one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { parseListQuery } from '../../local-api/http/list-query.ts';
import { roster } from '../../local-api/roster/store.ts';
import { todayCounts } from '../../local-api/today/store.ts';
import { visitPaging } from '../../local-api/visits/routes.ts';
import { listVisits, visitQueryFields } from '../../local-api/visits/store.ts';
import { testContext } from '../helpers/context.ts';
import { countStatements } from '../helpers/statements.ts';
import { callerOf } from '../helpers/sync.ts';

test("the open visits and the visits waiting for a decision are read from their own indexes, in the lists' order", async () => {
  const ctx = await testContext();
  try {
    const company = await createCompany(ctx, { name: 'Acme', timezone: 'America/Sao_Paulo' });
    const admin = await callerOf(ctx, company.apiKey);
    const host = { ...admin, role: 'host' as const, hostId: 'h1' };
    const sqlite = ctx.db.sqlite;
    assert.ok(sqlite, 'the plans are SQLite’s');
    // As the visit log's (a host's visits in check-in order): it must not draw a host's read of the open visits,
    // which would then walk every visit of theirs.
    sqlite.exec('CREATE INDEX visits_host_in_order ON visits (companyId, hostId, checkinAt) WHERE deletedAt IS NULL');
    const statements = countStatements(ctx);
    const planOf = (sql: string) => {
      const parameters = Object.fromEntries([...sql.matchAll(/:(\w+)/g)].map(([, name]) => [name, null]));
      const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(parameters) as { detail: string }[];
      return rows.map((row) => row.detail).join('; ');
    };
    const openVisits = (log: readonly string[]) =>
      log.filter((sql) => /FROM visits .*isInsideCompany = 1 AND checkoutAt IS NULL/.test(sql));

    for (const caller of [admin, host]) {
      statements.reset();
      await todayCounts(ctx, caller);
      const [open, ...others] = openVisits(statements.log);
      assert.ok(open && others.length === 0, `${caller.role}: one read of the open visits`);
      assert.match(planOf(open), /^SEARCH visits USING INDEX visits_open \(companyId=\?\)$/, caller.role);
    }

    statements.reset();
    await roster(ctx, admin);
    const [open] = openVisits(statements.log);
    assert.ok(open, 'the roster reads the open visits');
    assert.match(planOf(open), /^SEARCH visits USING INDEX visits_open \(companyId=\?\)$/);

    for (const caller of [admin, host]) {
      statements.reset();
      const waiting = { queryKey: 'authorizationStatus', queryOp: '==', queryValue: 'waiting', limit: '500' };
      await listVisits(ctx, caller, parseListQuery(waiting, visitPaging, visitQueryFields));
      const [list] = statements.log.filter((sql) => sql.startsWith('SELECT * FROM visits'));
      assert.ok(list, `${caller.role}: the list is read`);
      assert.match(
        planOf(list),
        /^SEARCH visits USING INDEX visits_authorization \(companyId=\? AND authorizationStatus=\?\)$/,
        caller.role,
      );
    }
  } finally {
    await ctx.db.close();
  }
});
