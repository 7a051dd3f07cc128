import { join, resolve } from 'node:path';
import { firstStartCompany } from '../../local-api/device.ts';
import { command } from './command.ts';
import { dataFolder, servicePort, servicePortOption } from './inputs.ts';
import { closeOnSignal, startServiceOrExplain } from './service.ts';

/**
 * `npm start`: the Electron kiosk where it can run (Electron's binary is installed and there is a display);
 * elsewhere, or if Electron fails, the same service in browser mode, so a newcomer's first run always gets a data
 * folder, a company enrolled for its kiosk with its key and first PIN, and the kiosk's address.
 */
export const start = command({
  name: 'start',
  summary: 'The kiosk: the Electron app, or browser mode where Electron cannot run.',
  options: {
    port: servicePortOption,
    data: { type: 'string', value: '<dir>', help: "the data folder (default: $PORTARIA_DATA, else the app's own)" },
    browser: { type: 'boolean', help: 'browser mode even where Electron could run' },
  },
  details: 'In browser mode the data folder defaults to ./.data, and the kiosk page is printed with its address.',
  async run(values) {
    const data = values.data ?? process.env.PORTARIA_DATA;
    const dataOption = values.data === undefined ? 'PORTARIA_DATA' : '--data';
    const portText = values.port ?? process.env.PORT;
    const portNumber = servicePort(values.port);
    // Loaded here only: the Electron launcher pulls in the build tools, which the other commands never need.
    const { prepareElectron, runElectron } = await import('./electron.ts');
    const electron = values.browser ? { reason: '--browser was given' } : await prepareElectron();
    if ('binary' in electron) {
      process.stdout.write(`Starting the Electron kiosk (data folder: ${data ?? "the app's user-data folder"}).\n`);
      const env = {
        ...process.env,
        ...(data ? { PORTARIA_DATA: dataFolder(data, dataOption) } : {}),
        ...(portText ? { PORTARIA_PORT: String(portNumber) } : {}),
      };
      const code = await runElectron(electron.binary, env);
      if (code === 0 || code === null) return;
      process.stdout.write(`Electron exited with code ${code}: starting the kiosk in browser mode instead.\n`);
    } else {
      process.stdout.write(`Not starting the Electron kiosk: ${electron.reason}. Starting it in browser mode.\n`);
    }
    const dataDir = data ? dataFolder(data, dataOption) : dataFolder(join(process.cwd(), '.data'));
    const service = await startServiceOrExplain({ port: portNumber, dataDir });
    closeOnSignal(service.close);
    const first = await firstStartCompany(service.ctx, 'My Company');
    if (first) {
      process.stdout.write(
        `Created company ${first.id} and enrolled this kiosk to it (rename it with PATCH /v1/company).\n` +
          `  API key (admin, shown once): ${first.apiKey}\n` +
          (first.pin ? `  Front-desk PIN (shown once): ${first.pin}\n` : ''),
      );
    }
    process.stdout.write(
      `Data folder: ${resolve(dataDir)}\nKiosk: ${service.url}/\nConsole: ${service.url}/console\nAPI: ${service.url}/v1\n`,
    );
  },
});
