import { writeFileSync } from 'node:fs';
import { deviceOwnerActor } from '../../local-api/audit/store.ts';
import { companyCaller } from '../../local-api/companies/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { exportPerson } from '../../local-api/privacy/export.ts';
import { erasureInput } from '../../local-api/privacy/schema.ts';
import { CommandFailure, command, UsageError } from './command.ts';
import { companyOption, databaseOption, dataOption } from './inputs.ts';
import { openCommandService } from './service.ts';

/**
 * `portaria privacy export`: the subject-access export of POST /v1/privacy/export, for an operator who holds the
 * data folder (audited as the operator's). Written to `--out` (readable by its owner only) or to stdout.
 */
export const privacyExport = command({
  name: 'privacy export',
  summary: 'Everything held about a person, as JSON (the export of POST /v1/privacy/export; docs/api.md).',
  options: {
    data: dataOption,
    database: databaseOption,
    company: companyOption,
    email: { type: 'string', value: '<e>', help: "the person's e-mail" },
    cpf: { type: 'string', value: '<n>', help: "the person's CPF" },
    document: { type: 'string', value: '<d>', help: "the person's document number" },
    name: { type: 'string', value: '<name>', help: "the person's name (with --phone)" },
    phone: { type: 'string', value: '<n>', help: "the person's phone (with --name)" },
    out: { type: 'string', value: '<file>', help: 'where to write it (default: stdout)' },
  },
  async run(values) {
    const { email, cpf, document, name, phone } = values;
    const who = erasureInput.safeParse({ email, cpf, document, name, phone });
    if (!who.success) {
      throw new UsageError(
        `privacy export: ${who.error.issues.map((i) => `--${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    }
    const ctx = await openCommandService(values);
    try {
      const company = await companyCaller(ctx, values.company);
      if (!company) throw new CommandFailure(`no company ${values.company} in ${values.data}: give one of its ids`);
      const answer = `${JSON.stringify(await exportPerson(ctx, company, who.data, deviceOwnerActor(company.companyId)), null, 2)}\n`;
      if (values.out) writeFileSync(values.out, answer, { mode: 0o600 });
      else process.stdout.write(answer);
    } catch (error) {
      if (error instanceof ApiError && error.type === 'MISSING_IDENTIFIER') {
        throw new UsageError('privacy export needs --email, --cpf, --document, or --name with --phone');
      }
      throw error;
    } finally {
      await ctx.db.close();
    }
  },
});
