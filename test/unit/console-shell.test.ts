import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ConsolePage, homeOf, routeOf } from '../../renderer/src/console/pages.ts';
import { matchPath } from '../../renderer/src/console/router.ts';
import { type ConsoleSession, consoleLanguage } from '../../renderer/src/console/session.ts';
import { kioskLanguage } from '../../renderer/src/i18n/languages.ts';

const page = (id: string, path: string, roles: ConsolePage['roles'], inMenu = true): ConsolePage => ({
  id,
  path,
  roles,
  title: inMenu ? { en: id, 'pt-BR': id, de: id, 'zh-Hans': id } : undefined,
  load: async () => ({ default: () => null }),
});

const pages = [
  page('visit', '/console/visits/:id', ['ADMIN', 'HOST'], false),
  page('settings', '/console/settings', ['ADMIN']),
  page('today', '/console/today', ['ADMIN', 'HOST', 'MANAGER']),
];

const sessionAs = (role: ConsoleSession['account']['role']): ConsoleSession => ({
  account: { hostId: 'h', companyId: 'c', name: 'Ana', email: 'ana@example.com', role, lang: null },
  company: { id: 'c', name: 'Acme', lang: 'en', timeZone: 'UTC', brandColor: null },
  csrfToken: 't',
});

test('a path matches a pattern segment by segment, its parameters decoded', () => {
  assert.deepEqual(matchPath('/console/welcome/:token', '/console/welcome/a%2Fb'), { token: 'a/b' });
  assert.deepEqual(matchPath('/console/today', '/console/today'), {});
  assert.equal(matchPath('/console/welcome/:token', '/console/welcome'), undefined);
  assert.equal(matchPath('/console/welcome/:token', '/console/welcome/a/b'), undefined);
  assert.equal(matchPath('/console/today', '/console/todays'), undefined);
  assert.equal(matchPath('/console/welcome/:token', '/console/welcome/%E0%A4%A'), undefined);
});

test("/console leads to the first page of the menu the person's role sees", () => {
  assert.equal(homeOf(sessionAs('ADMIN'), pages)?.id, 'settings');
  assert.equal(homeOf(sessionAs('HOST'), pages)?.id, 'today');
  assert.equal(homeOf(sessionAs('SECURITY'), pages), undefined);
});

test('a path finds its page and parameters, pages off the menu included', () => {
  assert.deepEqual(routeOf('/console/visits/v1', pages)?.params, { id: 'v1' });
  assert.equal(routeOf('/console/visits/v1', pages)?.page.id, 'visit');
  assert.equal(routeOf('/console/nothing', pages), undefined);
});

test('the language: the address, then the choice, then the account, then the browser by its prefix', () => {
  const sources = { asked: null, chosen: null, account: null, browser: 'de-AT' };
  assert.equal(consoleLanguage(sources, kioskLanguage), 'de');
  assert.equal(consoleLanguage({ ...sources, account: 'pt-BR' }, kioskLanguage), 'pt-BR');
  assert.equal(consoleLanguage({ ...sources, account: 'pt-BR', chosen: 'zh-Hans' }, kioskLanguage), 'zh-Hans');
  assert.equal(consoleLanguage({ ...sources, chosen: 'zh-Hans', asked: 'en' }, kioskLanguage), 'en');
  assert.equal(consoleLanguage({ ...sources, asked: 'klingon' }, kioskLanguage), 'de');
});
