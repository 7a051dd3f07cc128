import type { Context } from '../../local-api/context.ts';
import { enrolDevice, setFirstPin } from '../../local-api/device.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { syncState } from '../../local-api/sync/state.ts';
import { CommandFailure, command } from './command.ts';
import { companyOption, databaseOption, dataOption } from './inputs.ts';
import { openCommandService } from './service.ts';

/**
 * Runs `work` on the data folder (whoever runs the command line there is the device owner), printing its answer as
 * JSON; an unknown company or credential is said in one line.
 */
export async function onDataFolder(
  store: { data: string; database?: string | undefined },
  work: (ctx: Context) => unknown,
  notFound = 'no such company or credential in this data folder (see portaria keys list)',
): Promise<void> {
  const ctx = await openCommandService(store);
  try {
    process.stdout.write(`${JSON.stringify(await work(ctx))}\n`);
  } catch (error) {
    if (error instanceof ApiError && error.type === 'NOT_FOUND') {
      throw new CommandFailure(notFound);
    }
    throw error;
  } finally {
    await ctx.db.close();
  }
}

/**
 * `portaria kiosk enrol`: the device owner chooses the company this device's kiosk serves. Its page gets a new
 * kiosk credential; a company without a PIN gets its first one, printed once. A kiosk that follows a hub serves the
 * hub's company and no other.
 */
export const kioskEnrol = command({
  name: 'kiosk enrol',
  summary: "Chooses the company this device's kiosk serves; prints it as JSON (and its first PIN, once).",
  options: {
    data: dataOption,
    database: databaseOption,
    company: companyOption,
  },
  run: (values) =>
    onDataFolder(values, async (ctx) => {
      const followed = (await syncState(ctx)).companyId;
      if (followed !== null && followed !== values.company) {
        throw new CommandFailure(`this kiosk follows a hub for company ${followed}: it serves that company only`);
      }
      await enrolDevice(ctx, values.company);
      const pin = await setFirstPin(ctx, values.company);
      return { companyId: values.company, enrolled: true, ...(pin ? { pin } : {}) };
    }),
});
