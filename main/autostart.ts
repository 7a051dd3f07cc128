import { join } from 'node:path';

/**
 * Opening the app at login. Electron's `app.setLoginItemSettings` works on Windows and macOS only; on Linux the
 * desktop's own mechanism is an XDG autostart entry, `~/.config/autostart/<name>.desktop`, written here.
 */
export type LoginItemPlan =
  | { kind: 'login-item'; openAtLogin: boolean }
  | { kind: 'xdg-autostart'; file: string; contents: string | undefined };

export interface LoginItemEnvironment {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homeDir: string;
  /** `process.execPath` of the running app. */
  execPath: string;
}

export function loginItemPlan(enabled: boolean, environment: LoginItemEnvironment): LoginItemPlan {
  if (environment.platform !== 'linux') return { kind: 'login-item', openAtLogin: enabled };
  const configHome = environment.env.XDG_CONFIG_HOME || join(environment.homeDir, '.config');
  // An AppImage runs from a temporary mount that changes at every start: the entry must name the image itself.
  const executable = environment.env.APPIMAGE || environment.execPath;
  return {
    kind: 'xdg-autostart',
    file: join(configHome, 'autostart', 'portaria.desktop'),
    contents: enabled ? desktopEntry(executable) : undefined,
  };
}

/** Quotes an argument for a desktop entry's Exec key (Desktop Entry Specification, "The Exec key"). */
export function quoteExecArgument(argument: string): string {
  if (!/[\s"'\\><~|&;$*?#()`]/.test(argument)) return argument;
  return `"${argument.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
}

export function desktopEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Portaria',
    'Comment=Visitor check-in kiosk',
    `Exec=${quoteExecArgument(executable)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
