/**
 * The Electron main process: the glue between Electron's APIs and the pure modules beside this file, which hold
 * every decision and are unit-tested without Electron (test/electron/). Nothing else imports this file.
 *
 * Environment: PORTARIA_DATA replaces the user-data folder (tests, `npm start --data`), PORTARIA_PORT the
 * service's port, PORTARIA_KIOSK=0 opens a normal window instead of the kiosk; otherwise `kiosk.json` decides.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  type Session,
  safeStorage,
  session,
  utilityProcess,
} from 'electron';
import pino from 'pino';
import { loadDeviceKey } from '../local-api/secrets/box.ts';
import type { PrintBadgeResult } from '../preload/api.ts';
import { loginItemPlan } from './autostart.ts';
import { withContentSecurityPolicy } from './csp.ts';
import {
  allowNavigation,
  allowPermissionCheck,
  allowPermissionRequest,
  isAppUrl,
  windowOpenResponse,
} from './guards.ts';
import { ipcArguments, ipcDispatcher } from './ipc.ts';
import { safeStorageKeyWrapper } from './key-wrapper.ts';
import { badgePrintOptions } from './printing.ts';
import { backoff } from './recovery.ts';
import { ServiceSupervisor } from './service.ts';
import { checkExitPin, kioskConnection } from './service-link.ts';
import { serviceChildEntry, utilityServiceProcess } from './service-process.ts';
import { loadKioskSettings, type PrinterSettings } from './settings.ts';
import { badgeWindowOptions, kioskWindowOptions } from './window.ts';

const log = pino({ level: process.env.PORTARIA_LOG_LEVEL ?? 'info' }, pino.destination(2)).child({ part: 'shell' });
const preload = join(import.meta.dirname, '..', 'preload', 'index.cjs');

// A fixed folder name, whatever the package's name: the database lives here.
app.setPath('userData', resolve(process.env.PORTARIA_DATA ?? join(app.getPath('appData'), 'Portaria')));

let kioskWindow: BrowserWindow | undefined;
let kioskLocked = false;
let quitting = false;

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    log.info({}, 'Portaria is already running; handing over to it');
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (kioskWindow?.isMinimized()) kioskWindow.restore();
    kioskWindow?.focus();
  });
  Menu.setApplicationMenu(null);
  await app.whenReady();

  const userData = app.getPath('userData');
  mkdirSync(userData, { recursive: true });
  const settingsFile = join(userData, 'kiosk.json');
  const { settings, problem } = loadKioskSettings(settingsFile);
  if (problem) log.warn({ file: settingsFile, problem }, 'kiosk settings unreadable; using the defaults');
  applyLoginItem(settings.autoStart);
  if (process.platform === 'linux') {
    log.info({ backend: safeStorage.getSelectedStorageBackend() }, 'device key wrapped with this safeStorage backend');
  }

  // The service runs in its own process (docs/benchmarks.md, "Event-loop delay"); only this process can use
  // safeStorage, so the key is unwrapped here and handed over the child's message channel.
  const supervisor = new ServiceSupervisor({
    dataDir: userData,
    port: Number(process.env.PORTARIA_PORT ?? settings.port),
    deviceKey: loadDeviceKey(userData, safeStorageKeyWrapper(safeStorage)),
    companyName: 'My Company',
    appVersion: app.getVersion(),
    fork: utilityServiceProcess(utilityProcess, serviceChildEntry('js')),
    log,
  });
  const started = await supervisor.start();
  const origin = new URL(started.url).origin;
  if (started.firstStart) {
    // Shown once, on the terminal only (never the log): only their hashes are kept.
    const { companyId, apiKey, pin } = started.firstStart;
    process.stdout.write(
      `Created company ${companyId} and enrolled this kiosk to it.\n  API key (admin, shown once): ${apiKey}\n` +
        (pin ? `  Front-desk PIN (shown once; it also leaves kiosk mode): ${pin}\n` : ''),
    );
  }
  process.on('uncaughtException', (error) => log.error({ err: error }, 'uncaught exception in the main process'));
  process.on('unhandledRejection', (error) => log.error({ err: error }, 'unhandled rejection in the main process'));

  lockDown(session.defaultSession, origin);
  // Quitting waits for the service to stop (a pending restart included); then the quit goes on.
  let stopRequested = false;
  let stopped = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped) return;
    event.preventDefault();
    if (stopRequested) return;
    stopRequested = true;
    supervisor
      .stop()
      .catch((error) => log.error({ err: error }, 'stopping the service'))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  app.on('window-all-closed', () => app.quit());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  const dispatch = ipcDispatcher(() => origin, {
    connection: () => kioskConnection(supervisor.service.url),
    appVersion: () => app.getVersion(),
    printBadge: ({ url, copies }) => printBadge(url, loadKioskSettings(settingsFile).settings.printer, copies),
    async exitKiosk(pin) {
      const result = await checkExitPin(supervisor.service.url, pin);
      log.warn({ result }, 'kiosk exit requested');
      if (result.exited) {
        kioskLocked = false;
        kioskWindow?.setKiosk(false);
        kioskWindow?.setFullScreen(false);
      }
      return result;
    },
  });
  for (const channel of Object.keys(ipcArguments)) {
    ipcMain.handle(channel, (event, ...args) =>
      dispatch(channel, event.senderFrame, args).catch((error) => {
        log.warn({ channel, err: error }, 'IPC message refused or failed');
        throw error;
      }),
    );
  }

  const kiosk = process.env.PORTARIA_KIOSK ? process.env.PORTARIA_KIOSK !== '0' : settings.kiosk;
  openKioskWindow(`${origin}/`, kiosk);
}

/** Permissions, response headers and navigation of every web contents, locked to the app's origin. */
function lockDown(ses: Session, origin: string): void {
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    const allowed = allowPermissionRequest(origin, permission, { ...details, mediaTypes });
    if (!allowed) log.warn({ permission, url: details.requestingUrl }, 'permission refused');
    callback(allowed);
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    allowPermissionCheck(origin, permission, requestingOrigin, details),
  );
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = withContentSecurityPolicy(details.url, details.responseHeaders, (url) =>
      isAppUrl(url, origin),
    );
    callback(responseHeaders ? { responseHeaders } : {});
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    const guard = (event: Electron.Event, url: string) => {
      if (allowNavigation(url, origin)) return;
      event.preventDefault();
      log.warn({ url }, 'navigation refused');
    };
    contents.on('will-navigate', (event, url) => guard(event, url));
    contents.on('will-redirect', (event, url) => guard(event, url));
    contents.setWindowOpenHandler(({ url }) => {
      log.warn({ url }, 'new window refused');
      return windowOpenResponse();
    });
  });
}

function openKioskWindow(url: string, kiosk: boolean): void {
  const window = new BrowserWindow(kioskWindowOptions({ preload, kiosk, devTools: !app.isPackaged }));
  kioskWindow = window;
  kioskLocked = kiosk;
  window.removeMenu();
  window.once('ready-to-show', () => window.show());
  window.on('close', (event) => {
    if (kioskLocked && !quitting) event.preventDefault();
  });
  window.on('closed', () => {
    kioskWindow = undefined;
  });
  const contents = window.webContents;
  contents.setVisualZoomLevelLimits(1, 1).catch(() => undefined);
  const retries = backoff(Date.now, { baseMs: 500, maxMs: 30_000, windowMs: 300_000 });
  const reloadLater = () => {
    setTimeout(() => {
      if (!window.isDestroyed()) window.loadURL(url).catch(() => undefined);
    }, retries.next());
  };
  contents.on('render-process-gone', (_event, details) => {
    log.error({ reason: details.reason, exitCode: details.exitCode }, 'kiosk page crashed; reloading it');
    if (!quitting) reloadLater();
  });
  contents.on('did-fail-load', (_event, code, description, failedUrl, isMainFrame) => {
    // -3 is ERR_ABORTED: a navigation replaced by another one, not a failure.
    if (!isMainFrame || code === -3 || quitting) return;
    log.error({ code, description, url: failedUrl }, 'kiosk page failed to load; retrying');
    reloadLater();
  });
  contents.on('unresponsive', () => log.warn({}, 'kiosk page unresponsive'));
  window.loadURL(url).catch(() => undefined);
}

async function printBadge(url: string, printer: PrinterSettings, copies?: number): Promise<PrintBadgeResult> {
  const badge = new BrowserWindow(badgeWindowOptions(preload));
  try {
    await badge.loadURL(url);
    return await new Promise<PrintBadgeResult>((done) => {
      badge.webContents.print(badgePrintOptions(printer, copies), (printed, failureReason) =>
        done(printed ? { printed: true } : { printed: false, reason: failureReason }),
      );
    });
  } catch (error) {
    log.error({ err: error, url }, 'badge page failed to load');
    return { printed: false, reason: 'BADGE_PAGE_FAILED' };
  } finally {
    badge.destroy();
  }
}

/** Auto-start concerns the installed app; from sources the entry would launch a bare Electron. */
function applyLoginItem(enabled: boolean): void {
  if (!app.isPackaged) return;
  const plan = loginItemPlan(enabled, {
    platform: process.platform,
    env: process.env,
    homeDir: homedir(),
    execPath: process.execPath,
  });
  if (plan.kind === 'login-item') {
    app.setLoginItemSettings({ openAtLogin: plan.openAtLogin });
  } else if (plan.contents) {
    mkdirSync(dirname(plan.file), { recursive: true });
    writeFileSync(plan.file, plan.contents);
  } else {
    rmSync(plan.file, { force: true });
  }
}

main().catch((error) => {
  log.fatal({ err: error }, 'Portaria could not start');
  dialog.showErrorBox('Portaria could not start', String(error instanceof Error ? error.message : error));
  app.exit(1);
});
