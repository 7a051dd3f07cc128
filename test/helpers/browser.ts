import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { repoRoot } from './service.ts';

/** Debian's Chromium, headless, with a fake camera (a test pattern, or the given Y4M video). */
export function launchChromium(options: { video?: string } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      ...(options.video ? [`--use-file-for-fake-video-capture=${options.video}`] : []),
    ],
  });
}

/** A kiosk page at a touch screen's size, failing the test on any script error or CSP violation. */
export async function openKiosk(browser: Browser, url: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, hasTouch: true, locale: 'en-US' });
  await context.grantPermissions(['camera'], { origin: url });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  await page.goto(`${url}/`);
  return { page, problems };
}

const axeSource = readFileSync(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * The page's accessibility problems found by axe-core (WCAG 2.1 A and AA), as "rule: element" lines. axe is run
 * through the DevTools protocol, which the page's CSP does not govern, so the policy stays as strict as served.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  // Once per document: a page that moves between screens without reloading keeps it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(() =>
    // biome-ignore lint/suspicious/noExplicitAny: axe is the global the evaluated script defined
    (window as any).axe
      .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((r: { violations: unknown }) => r.violations),
  )) as AxeViolation[];
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`));
}

/**
 * Where screenshots go: `docs/screenshots/` when PORTARIA_SCREENSHOTS=1 (`npm run screenshots`), else a temporary
 * folder, so an ordinary test run leaves the repository as it was.
 */
export const screenshotDir =
  process.env.PORTARIA_SCREENSHOTS === '1' ? join(repoRoot, 'docs/screenshots') : join(tmpdir(), 'portaria-screens');
mkdirSync(screenshotDir, { recursive: true });

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/**
 * A Y4M video (what Chromium's fake camera plays) of a QR code on white, 640×480, 4:2:0. The luma plane holds the
 * code; the chroma planes are neutral grey.
 */
export function qrVideo(text: string, file: string): string {
  const width = 640;
  const height = 480;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const scale = Math.floor(400 / (size + 8));
  const left = Math.floor((width - size * scale) / 2);
  const top = Math.floor((height - size * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!qr.modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++)
        luma.fill(
          16,
          (top + row * scale + y) * width + left + col * scale,
          (top + row * scale + y) * width + left + (col + 1) * scale,
        );
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
  return file;
}

/** The screen sizes every screen is shown at: portrait and landscape kiosks, a tablet, a small laptop. */
export const screenSizes = [
  { width: 1080, height: 1920 },
  { width: 1920, height: 1080 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
] as const;

/**
 * Screenshots of the page at each of `screenSizes` (`<name>-<width>x<height>.png`); the page's own size is set back
 * afterwards. `check` runs at each size (e.g. that nothing leaves the screen).
 */
export async function screenshotSizes(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  const original = page.viewportSize();
  for (const size of screenSizes) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
    await check?.();
    await screenshot(page, `${name}-${size.width}x${size.height}`);
  }
  if (original) await page.setViewportSize(original);
}

/** Elements matching `selector` whose content is wider than they are (it spills into the next column). */
export async function spilling(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (selector) =>
      Array.from(document.querySelectorAll(selector))
        .filter((element) => element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1)
        .map(
          (element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`,
        ),
    selector,
  );
}

/** Elements matching `selector` whose right edge passes `limit` px (or the viewport's width): what left the screen. */
export async function overflowing(page: Page, selector: string, limit?: number): Promise<string[]> {
  return page.evaluate(
    ({ selector, limit }) => {
      const right = limit ?? document.documentElement.clientWidth;
      return Array.from(document.querySelectorAll(selector))
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && box.right > right + 1;
        })
        .map(
          (element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`,
        );
    },
    { selector, limit },
  );
}
