import type { Api } from '../api.ts';
import type { KioskData } from '../kiosk-data.ts';

/**
 * What every settings editor is handed, by the front desk and by the console's Settings page alike (one editor per
 * setting in the product, docs/console.md "Settings"): the client of the caller's credential, the company's data as
 * the kiosk loads it, the language shown, and what to do once a setting changed (load the data again).
 */
export interface SettingsProps {
  api: Api;
  data: KioskData;
  lang: string;
  onSettings: () => void;
}
