import type { Api } from '../api.ts';
import type { SyncStatus } from '../hub.ts';
import type { KioskData } from '../kiosk-data.ts';

/**
 * What the front desk hands each of its panels. In a module of its own, so the desk and its panels both import it
 * and neither imports the other.
 */
export interface FrontDeskProps {
  api: Api;
  data: KioskData;
  lang: string;
  sync: SyncStatus | undefined;
  onSettings: () => void;
  onClose: () => void;
}
