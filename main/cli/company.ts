import { createCompanyForDevice } from '../../local-api/device.ts';
import { isTimeZone } from '../../local-api/rules/time.ts';
import { command, UsageError } from './command.ts';
import { databaseOption, dataOption } from './inputs.ts';
import { openCommandService } from './service.ts';

export const companyCreate = command({
  name: 'company create',
  summary: 'Creates a company and prints it with its API key, as JSON (also while the service runs).',
  details:
    'A data folder whose kiosk serves no company yet is enrolled to the new one, and its first front-desk PIN is\n' +
    'printed once: {"id", "apiKey", "enrolled": true, "pin"}. Otherwise the kiosk keeps its company\n' +
    '("enrolled": false); `portaria kiosk enrol` chooses another.',
  options: {
    data: dataOption,
    database: databaseOption,
    name: { type: 'string', value: '<name>', help: "the company's name", required: true },
    'api-key': { type: 'string', value: '<key>', help: 'the API key to give it (16 characters or more; default: new)' },
    timezone: { type: 'string', value: '<IANA zone>', help: "the company's time zone, e.g. America/Sao_Paulo" },
  },
  async run(values) {
    if (values.name.trim() === '') throw new UsageError("--name is empty: give the company's name, e.g. --name Acme");
    const apiKey = values['api-key'];
    if (apiKey !== undefined && apiKey.length < 16) {
      throw new UsageError('--api-key must have 16 characters or more (leave it out for a new random one)');
    }
    if (values.timezone !== undefined && !isTimeZone(values.timezone)) {
      throw new UsageError(`--timezone ${values.timezone} is not an IANA time zone: give one like Europe/Lisbon`);
    }
    const ctx = await openCommandService(values);
    try {
      const company = await createCompanyForDevice(ctx, { name: values.name, apiKey, timezone: values.timezone });
      process.stdout.write(`${JSON.stringify(company)}\n`);
    } finally {
      await ctx.db.close();
    }
  },
});
