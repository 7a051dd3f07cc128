import { createContext, useContext } from 'react';
import type { Api } from '../api.ts';
import type { Lang } from '../i18n/languages.ts';
import type { ConsoleSession } from './session.ts';

/** What every console page may use: the service, who is signed in (if anyone), the language and the way around. */
export interface Shell {
  api: Api;
  session: ConsoleSession | undefined;
  lang: Lang;
  setLang(lang: Lang): void;
  navigate(path: string): void;
  /** The route's parameters (`:token` of `/console/welcome/:token`). */
  params: Record<string, string>;
  /** Reads who is signed in again: after signing in or out, or when the service says the session ended. */
  refreshSession(): Promise<void>;
}

export const ShellContext = createContext<Shell | undefined>(undefined);

/** The shell, on any console page (signed out too). */
export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the console');
  return shell;
}

/** The shell on a page shown only to someone signed in: its session is there. */
export function useConsole(): Shell & { session: ConsoleSession } {
  const shell = useShell();
  const session = shell.session;
  if (!session) throw new Error('useConsole on a signed-out page');
  return { ...shell, session };
}
