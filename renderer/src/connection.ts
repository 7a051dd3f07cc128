import type { Connection } from '../../preload/api.ts';

/**
 * Where the kiosk's credential comes from. Inside the Electron shell the preload exposes `window.portaria`
 * (preload/api.ts), whose `connection()` answers the device's key; in browser mode the page asks its own service
 * at `/kiosk/session`, which answers only to this machine (docs/kiosk.md). The key stays in memory: never in
 * storage, never in the URL.
 */
export async function connect(): Promise<Pick<Connection, 'companyId' | 'apiKey'>> {
  if (window.portaria) {
    const { companyId, apiKey } = await window.portaria.connection();
    return { companyId, apiKey };
  }
  const response = await fetch('/kiosk/session', { cache: 'no-store', credentials: 'omit' });
  if (!response.ok) throw new Error(`kiosk session refused (${response.status})`);
  return (await response.json()) as Pick<Connection, 'companyId' | 'apiKey'>;
}
