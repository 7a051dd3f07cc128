import type { Page } from 'playwright-core';
import { client, startService, type TestService } from './service.ts';

export type Api = ReturnType<typeof client>;

/**
 * A running service whose kiosk is enrolled for its one company: the company's admin key and client, the kiosk
 * credential its page gets, the first front-desk PIN, and a few hosts shown on the kiosk.
 */
export interface KioskFixture {
  service: TestService;
  /** The company's admin key. */
  apiKey: string;
  api: Api;
  /** The credential the page gets from /kiosk/session (role kiosk). */
  kioskKey: string;
  pin: string;
  hosts: { beatriz: { id: string; name: string }; carlos: { id: string; name: string } };
}

export async function kioskFixture(options: { args?: string[] } = {}): Promise<KioskFixture> {
  const service = await startService({ args: options.args ?? [] });
  const company = (await service.company('Acme')) as { id: string; apiKey: string; pin: string };
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  const api = client(service.url, company.apiKey);
  await api('PATCH', '/v1/company', { name: 'Acme', timezone: 'America/Sao_Paulo', lang: 'en' });
  const host = async (name: string, email: string, sector: string) => {
    const { status, body } = await api('POST', '/v1/hosts', { name, email, sector, isActive: true });
    if (status !== 200) throw new Error(`host not created: ${JSON.stringify(body)}`);
    return { id: body.id as string, name };
  };
  const beatriz = await host('Beatriz Lima', 'beatriz@acme.test', 'Engineering');
  const carlos = await host('Carlos Mendes', 'carlos@acme.test', 'Finance');
  await api('POST', '/v1/hosts', { name: 'Hidden Host', email: 'hidden@acme.test', isActive: false });
  return {
    service,
    apiKey: company.apiKey,
    api,
    kioskKey: session.apiKey,
    pin: company.pin,
    hosts: { beatriz, carlos },
  };
}

/** An invitee of Carlos's for today, with an e-mail made from the first name (and whatever `extra` adds). */
export async function invite(kiosk: KioskFixture, name: string, extra: Record<string, unknown> = {}) {
  const { status, body } = await kiosk.api('POST', '/v1/invitees', {
    name,
    email: `${name.split(' ')[0]?.toLowerCase()}@guest.test`,
    expectedAt: new Date().toISOString(),
    hostId: kiosk.hosts.carlos.id,
    ...extra,
  });
  if (status !== 200) throw new Error(`invitee not created: ${JSON.stringify(body)}`);
  return body as { id: string; cardNumber: number; name: string };
}

/** Draws a signature on the pad with the pointer, as a finger would. */
export async function sign(page: Page): Promise<void> {
  const pad = page.locator('canvas.signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  const at = (x: number, y: number) => [box.x + box.width * x, box.y + box.height * y] as const;
  await page.mouse.move(...at(0.2, 0.6));
  await page.mouse.down();
  for (const [x, y] of [
    [0.3, 0.3],
    [0.4, 0.7],
    [0.5, 0.35],
    [0.6, 0.65],
    [0.75, 0.4],
  ] as const)
    await page.mouse.move(...at(x, y), { steps: 4 });
  await page.mouse.up();
}

/** Opens the front desk from the welcome screen with the PIN, as staff do. */
export async function openFrontDesk(page: Page, pin: string): Promise<void> {
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  for (const digit of pin) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('tablist', { name: 'Front-desk sections' }).waitFor();
}

/**
 * The `/badge/…` page of each visit the page checks in from now on, by visit id: the id with its check-in's
 * receipt, as the kiosk's own print asks for it.
 */
export function badgePages(page: Page): Map<string, string> {
  const pages = new Map<string, string>();
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (!['/v1/kiosk/walkin', '/v1/kiosk/invitee/checkin'].includes(pathname) || !response.ok()) return;
    const visit = (await response.json()) as { id: string; receipt: string };
    pages.set(visit.id, `/badge/${visit.id}?${new URLSearchParams({ receipt: visit.receipt })}`);
  });
  return pages;
}

/**
 * Counts what a visitor does from now on in the page: taps (every pointer press, the robot's clicks included) and
 * screens (each new main heading). The page is one document, so the counters live until it is left.
 */
export async function startVisitorMeter(page: Page): Promise<() => Promise<{ taps: number; screens: number }>> {
  await page.evaluate(() => {
    const meter = { taps: 0, screens: 1, heading: document.querySelector('h1')?.textContent ?? '' };
    document.addEventListener('pointerdown', () => meter.taps++, true);
    new MutationObserver(() => {
      const heading = document.querySelector('h1')?.textContent ?? '';
      if (heading && heading !== meter.heading) {
        meter.screens++;
        meter.heading = heading;
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    (window as unknown as { visitorMeter: typeof meter }).visitorMeter = meter;
  });
  return () =>
    page.evaluate(() => {
      const { taps, screens } = (window as unknown as { visitorMeter: { taps: number; screens: number } }).visitorMeter;
      return { taps, screens };
    });
}

/**
 * Answers "About you" whether it shows every field at once (a wide screen) or one question per screen (portrait):
 * fills the fields named (by label) that the screen shows, leaves the others empty, and taps Next for each screen.
 */
export async function answerAboutYou(page: Page, answers: Readonly<Record<string, string>>): Promise<void> {
  await page.getByRole('heading', { name: 'About you' }).waitFor();
  const counter = page.locator('.form-one .step');
  // From the question shown (the first, or where the visitor came back to) to the last.
  const [, first = '1', last = '1'] =
    /(\d+) of (\d+)/.exec((await counter.count()) ? ((await counter.textContent()) ?? '') : '') ?? [];
  const total = Number(last);
  for (let question = Number(first); question <= total; question++) {
    if (total > 1) await counter.filter({ hasText: `Question ${question} of ${total}` }).waitFor();
    for (const [label, value] of Object.entries(answers)) {
      const field = page.getByLabel(label);
      if ((await field.count()) > 0) await field.fill(value);
    }
    await page.getByRole('button', { name: 'Next' }).click();
  }
}
