/**
 * Where the kiosk's credential comes from. Inside the Electron shell the preload exposes `window.portaria`, whose
 * `connection()` answers the device's key; in browser mode the page asks its own service for it at
 * `/kiosk/session`, which answers only to this machine (docs/kiosk.md). The key stays in memory: never in
 * storage, never in the URL.
 */
export interface Connection {
  companyId: string;
  apiKey: string;
}

export type PrintResult = { printed: true } | { printed: false; reason: string };

/** The part of the Electron bridge the page uses; any other member is ignored. */
export interface KioskBridge {
  connection(): Promise<Connection & { serviceUrl?: string }>;
  printBadge?(request: { path: string; copies?: number }): Promise<PrintResult>;
}

export function kioskBridge(): KioskBridge | undefined {
  const candidate = (window as unknown as { portaria?: Partial<KioskBridge> }).portaria;
  return typeof candidate?.connection === 'function' ? (candidate as KioskBridge) : undefined;
}

export async function connect(): Promise<Connection> {
  const bridge = kioskBridge();
  if (bridge) {
    const { companyId, apiKey } = await bridge.connection();
    return { companyId, apiKey };
  }
  const response = await fetch('/kiosk/session', { cache: 'no-store', credentials: 'omit' });
  if (!response.ok) throw new Error(`kiosk session refused (${response.status})`);
  return (await response.json()) as Connection;
}
