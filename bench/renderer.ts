/**
 * The renderer's weight and start: the gzip size of the JavaScript and CSS its index.html loads first, and the
 * time until the welcome screen can be used in headless Chromium.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

export type RendererResult =
  | { built: true; jsGzipKb: number; cssGzipKb: number; ttiMs: number }
  | { built: false; reason: string };

const chromiumPath = '/usr/bin/chromium';
const viteBin = (root: string) => resolve(root, 'node_modules/vite/bin/vite.js');
const hasViteConfig = (dir: string) =>
  existsSync(dir) && readdirSync(dir).some((file) => /^vite\.config\.(ts|mts|js|mjs)$/.test(file));

/** The files index.html loads before anything runs: its module scripts, module preloads and style sheets. */
export function initialAssets(indexHtml: string): { js: string[]; css: string[] } {
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const js: string[] = [];
  const css: string[] = [];
  for (const [tag] of indexHtml.matchAll(/<(script|link)\b[^>]*>/g)) {
    if (tag.startsWith('<script')) {
      const src = attribute(tag, 'src');
      if (src) js.push(src);
    } else {
      const rel = attribute(tag, 'rel');
      const href = attribute(tag, 'href');
      if (href && rel === 'modulepreload') js.push(href);
      if (href && rel === 'stylesheet') css.push(href);
    }
  }
  return { js, css };
}

const gzipKb = (dist: string, files: string[]) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, normalize(`/${file}`)))).length, 0) / 1024;

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves the built renderer on loopback, index.html for any path that is not a file (client-side routes). */
function serveStatic(dist: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(`/${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
    const file = existsSync(join(dist, path)) && extname(path) !== '' ? join(dist, path) : join(dist, 'index.html');
    res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Time to interactive as the page itself sees it: from navigation start until something can be pressed (a button,
 * link or field is on screen) and the main thread is then idle.
 */
async function timeToInteractive(url: string, runs: number): Promise<number> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForSelector('button, [role="button"], a[href], input', { state: 'visible', timeout: 30_000 });
      times.push(
        await page.evaluate(() => new Promise<number>((done) => requestIdleCallback(() => done(performance.now())))),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/** Builds the renderer with Vite and measures it; says why not when there is no renderer to build. */
export async function measureRenderer(root: string, runs: number): Promise<RendererResult> {
  const rendererDir = join(root, 'renderer');
  if (!hasViteConfig(rendererDir)) return { built: false, reason: 'renderer not built yet' };
  const build = spawnSync(process.execPath, [viteBin(root), 'build'], { cwd: rendererDir, encoding: 'utf8' });
  const dist = join(rendererDir, 'dist');
  if (build.status !== 0 || !existsSync(join(dist, 'index.html'))) {
    return { built: false, reason: `vite build failed: ${(build.stderr || build.stdout).trim().slice(-300)}` };
  }
  const { js, css } = initialAssets(readFileSync(join(dist, 'index.html'), 'utf8'));
  const server = await serveStatic(dist);
  try {
    const { port } = server.address() as AddressInfo;
    return {
      built: true,
      jsGzipKb: gzipKb(dist, js),
      cssGzipKb: gzipKb(dist, css),
      ttiMs: await timeToInteractive(`http://127.0.0.1:${port}/`, runs),
    };
  } finally {
    server.close();
  }
}
