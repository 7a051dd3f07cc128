import type { ComponentType } from 'react';
import type { Lang } from '../i18n/languages.ts';
import { matchPath } from './router.ts';
import { type ConsoleSession, type PersonRole, personRoles } from './session.ts';

type PageModule = Promise<{ default: ComponentType }>;

/** A page of the signed-in console: where it lives, who sees it, its name in the menu, its code (its own chunk). */
export interface ConsolePage {
  id: string;
  /** Under /console; may hold parameters (`/console/visits/:id`). */
  path: string;
  roles: readonly PersonRole[];
  /** Its name in the menu and the window's title; undefined for pages reached from another page, not the menu. */
  title?: Record<Lang, string>;
  load: () => PageModule;
}

/** A page shown to someone not signed in (signing in, setting a password from an e-mail's link). */
export interface PublicRoute {
  path: string;
  load: () => PageModule;
}

/** The signed-in pages, in the menu's order (docs/console.md says who sees which). */
export const consolePages: ConsolePage[] = [
  {
    id: 'today',
    path: '/console/today',
    roles: personRoles,
    title: { en: 'Today', 'pt-BR': 'Hoje', de: 'Heute', 'zh-Hans': '今天' },
    load: () => import('./today/Today.tsx'),
  },
  {
    id: 'invitations',
    path: '/console/invitations',
    roles: personRoles,
    title: { en: 'Invitations', 'pt-BR': 'Convites', de: 'Einladungen', 'zh-Hans': '邀请' },
    load: () => import('./invitations/Invitations.tsx'),
  },
  {
    id: 'approvals',
    path: '/console/approvals',
    roles: personRoles,
    title: { en: 'Approvals', 'pt-BR': 'Aprovações', de: 'Freigaben', 'zh-Hans': '审批' },
    load: () => import('./approvals/Approvals.tsx'),
  },
  {
    id: 'visit-log',
    path: '/console/visit-log',
    roles: personRoles,
    title: { en: 'Visit log', 'pt-BR': 'Registro de visitas', de: 'Besuchsprotokoll', 'zh-Hans': '来访记录' },
    load: () => import('./visit-log/VisitLog.tsx'),
  },
  {
    id: 'hosts',
    path: '/console/hosts',
    roles: ['ADMIN', 'MANAGER', 'SECURITY', 'FRONTDESK'],
    title: { en: 'Hosts', 'pt-BR': 'Anfitriões', de: 'Gastgeber', 'zh-Hans': '接待人' },
    load: () => import('./hosts/Hosts.tsx'),
  },
  {
    id: 'kiosks',
    path: '/console/kiosks',
    roles: ['ADMIN'],
    title: { en: 'Kiosks', 'pt-BR': 'Totens', de: 'Terminals', 'zh-Hans': '终端' },
    load: () => import('./kiosks/Kiosks.tsx'),
  },
  {
    id: 'analytics',
    path: '/console/analytics',
    roles: ['ADMIN', 'MANAGER'],
    title: { en: 'Analytics', 'pt-BR': 'Análises', de: 'Auswertungen', 'zh-Hans': '统计分析' },
    load: () => import('./analytics/Analytics.tsx'),
  },
  {
    id: 'settings',
    path: '/console/settings',
    roles: ['ADMIN'],
    title: { en: 'Settings', 'pt-BR': 'Configurações', de: 'Einstellungen', 'zh-Hans': '设置' },
    load: () => import('./settings/Settings.tsx'),
  },
  {
    id: 'account',
    path: '/console/account',
    roles: personRoles,
    title: { en: 'Account', 'pt-BR': 'Conta', de: 'Konto', 'zh-Hans': '账户' },
    load: () => import('./account/Account.tsx'),
  },
];

/** The signed-out pages; `/console/sign-in` is where a signed-out person is sent. */
export const publicRoutes: PublicRoute[] = [
  { path: '/console/sign-in', load: () => import('./account/SignIn.tsx') },
  { path: '/console/reset', load: () => import('./account/ResetRequest.tsx') },
  { path: '/console/welcome/:token', load: () => import('./account/SetPassword.tsx') },
  { path: '/console/reset/:token', load: () => import('./account/SetPassword.tsx') },
  { path: '/console/link/:token', load: () => import('./account/LinkSignIn.tsx') },
  { path: '/console/first-admin', load: () => import('./account/FirstAdmin.tsx') },
];

export const signInPath = '/console/sign-in';

/** The first page of the menu a person's role sees: where `/console` leads. */
export function homeOf(session: ConsoleSession, pages: readonly ConsolePage[] = consolePages): ConsolePage | undefined {
  return pages.find((page) => page.title && page.roles.includes(session.account.role));
}

/** Which page a signed-in person at `path` sees, and with which parameters. */
export function routeOf(path: string, pages: readonly ConsolePage[] = consolePages) {
  for (const page of pages) {
    const params = matchPath(page.path, path);
    if (params) return { page, params };
  }
  return undefined;
}
