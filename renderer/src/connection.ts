import type { Connection } from '../../preload/api.ts';
import { ApiProblem, unreachable } from './api.ts';

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
  const response = await fetch('/kiosk/session', { cache: 'no-store', credentials: 'omit' }).catch(() => {
    throw new ApiProblem(unreachable, 0);
  });
  if (!response.ok) {
    const { type, ...extra } = (await response.json().catch(() => ({}))) as { type?: string } & Record<string, unknown>;
    throw new ApiProblem(type ?? 'INTERNAL', response.status, extra);
  }
  return (await response.json()) as Pick<Connection, 'companyId' | 'apiKey'>;
}
