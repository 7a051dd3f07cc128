import { ownerAccountLink } from '../../local-api/accounts/store.ts';
import { consoleLink } from '../../local-api/accounts/tokens.ts';
import { command, UsageError } from './command.ts';
import { companyOption, databaseOption, dataOption } from './inputs.ts';
import { onDataFolder } from './kiosk.ts';

export const accountLink = command({
  name: 'account-link',
  summary: "Prints a single-use link to set a person's console password (7 days), as JSON; makes them an admin if new.",
  details:
    "For the owner of a headless hub to get into the console: the person is the company's active host with the e-mail,\n" +
    "or a new ADMIN host. Open the link (under the service's address, or --url) and choose a password.",
  options: {
    data: dataOption,
    database: databaseOption,
    company: companyOption,
    email: { type: 'string', value: '<e-mail>', help: "the person's e-mail", required: true },
    name: { type: 'string', value: '<name>', help: 'the name of a new host (default: the e-mail before @)' },
    url: { type: 'string', value: '<url>', help: "the service's public address, to print the whole link" },
  },
  run(values) {
    if (!/^[^@\s]+@[^@\s]+$/.test(values.email))
      throw new UsageError(`--email ${values.email} is not an e-mail address`);
    const base = values.url?.replace(/\/+$/, '');
    if (base !== undefined && !/^https?:\/\/\S+$/.test(base))
      throw new UsageError(`--url ${values.url} is not an http(s) URL`);
    return onDataFolder(
      values,
      async (ctx) => {
        const made = await ownerAccountLink(ctx, values.company, { email: values.email, name: values.name });
        return {
          hostId: made.hostId,
          created: made.created,
          path: consoleLink('', 'welcome', made.token),
          ...(base ? { url: consoleLink(base, 'welcome', made.token) } : {}),
          expiresAt: new Date(made.expiresAt).toISOString(),
        };
      },
      'no such company in this data folder (see portaria company create)',
    );
  },
});
