import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The kiosk's own settings, in `<userData>/kiosk.json`: what only the machine running the shell knows (its
 * printer, whether it opens at login). Written with its defaults on the first start so an installer finds every
 * key to edit; read again where a value is used (the printer on each print), so an edit needs no restart.
 */
export const kioskSettingsSchema = z.object({
  /** Full-screen kiosk, left only with the front-desk PIN. */
  kiosk: z.boolean().default(true),
  /** Open the app when the user logs in (Windows, macOS: login item; Linux: XDG autostart entry). */
  autoStart: z.boolean().default(false),
  /** The service's port on 127.0.0.1; the page's origin, so it stays the same from one start to the next. */
  port: z.number().int().min(1).max(65535).default(4780),
  printer: z
    .object({
      /** The system's name of the badge printer (e.g. `Brother_QL_820NWB`); empty for the default printer. */
      deviceName: z.string().max(200).default(''),
      /** The label, in millimetres: 62 × 100 is the common die-cut visitor label of label printers. */
      widthMm: z.number().min(10).max(300).default(62),
      heightMm: z.number().min(10).max(300).default(100),
      landscape: z.boolean().default(false),
      color: z.boolean().default(false),
    })
    .prefault({}),
});

export type KioskSettings = z.infer<typeof kioskSettingsSchema>;
export type PrinterSettings = KioskSettings['printer'];

export const defaultKioskSettings: KioskSettings = kioskSettingsSchema.parse({});

/**
 * Reads the settings file. A missing file is written with the defaults; a file that cannot be read or does not
 * fit the schema leaves it untouched, and the defaults apply with a problem to log: the kiosk still starts.
 */
export function loadKioskSettings(file: string): { settings: KioskSettings; problem?: string } {
  if (!existsSync(file)) {
    writeFileSync(file, `${JSON.stringify(defaultKioskSettings, null, 2)}\n`);
    return { settings: defaultKioskSettings };
  }
  try {
    const parsed = kioskSettingsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return { settings: parsed.data };
    const issue = parsed.error.issues[0];
    return { settings: defaultKioskSettings, problem: `${issue?.path.join('.')}: ${issue?.message}` };
  } catch (error) {
    return { settings: defaultKioskSettings, problem: (error as Error).message };
  }
}
