/**
 * The bridge the kiosk's page gets as `window.portaria`: everything the renderer may ask of the main process.
 * It is deliberately this small (see docs/security.md): the page talks to the service over HTTP with the
 * credential it gets here, and asks the main process only for what a web page cannot do itself.
 *
 * This file holds no code that needs Electron, so the renderer, the preload and the main process share it.
 */
/** IPC channel names, one per bridge function; the main process answers these and no other. */
export declare const channels: {
  readonly connection: 'portaria:connection';
  readonly appVersion: 'portaria:app-version';
  readonly printBadge: 'portaria:print-badge';
  readonly exitKiosk: 'portaria:exit-kiosk';
};
export type Channel = (typeof channels)[keyof typeof channels];
/** Where the service is and the kiosk's own API key (sent as `Authorization: Bearer <apiKey>`). */
export interface Connection {
  serviceUrl: string;
  companyId: string;
  apiKey: string;
}
/** A badge page of the app (same origin, e.g. `/badge/<visitId>`), printed silently to the configured printer. */
export interface PrintBadgeRequest {
  path: string;
  copies?: number;
}
export type PrintBadgeResult =
  | {
      printed: true;
    }
  | {
      printed: false;
      reason: string;
    };
export type ExitKioskResult =
  | {
      exited: true;
    }
  | {
      exited: false;
      reason: 'WRONG_PIN' | 'NO_PIN_SET' | 'UNAVAILABLE';
    }
  | {
      exited: false;
      reason: 'LOCKED';
      retryAfterMs: number;
    };
export interface PortariaBridge {
  connection(): Promise<Connection>;
  appVersion(): Promise<string>;
  printBadge(request: PrintBadgeRequest): Promise<PrintBadgeResult>;
  exitKiosk(pin: string): Promise<ExitKioskResult>;
}
declare global {
  interface Window {
    /** Present only inside the Electron shell; in browser mode the page reads its key some other way. */
    portaria?: PortariaBridge;
  }
}
