/**
 * The pages' JavaScript as a browser downloads it: what the kiosk's page (index.html) and the console
 * (console.html) load before their first screen shows (the module script and the modules it preloads), and the
 * chunks loaded later on demand. Sizes raw and gzipped (level 9, as a compressing proxy or the packaged app's asar
 * would hold them). Run after `npm run build:renderer`.
 *
 *   node --import tsx bench/renderer-size.ts        (npm run bench:renderer-size)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rendererDist } from '../local-api/kiosk/pages.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The scripts a page's HTML loads at once. */
function initialOf(page: string): Set<string> {
  const html = readFileSync(join(rendererDist, page), 'utf8');
  return new Set(
    [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/assets\/([^"]+\.js)"/g)].map(
      (m) => m[1] as string,
    ),
  );
}

const pages = ['index.html', 'console.html'].filter((page) => existsSync(join(rendererDist, page)));
const initial = new Map(pages.map((page) => [page, initialOf(page)]));
const rows = readdirSync(join(rendererDist, 'assets'))
  .filter((file) => file.endsWith('.js') || file.endsWith('.css'))
  .map((file) => {
    const bytes = readFileSync(join(rendererDist, 'assets', file));
    const loadedBy = pages.filter((page) => initial.get(page)?.has(file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, loadedBy };
  })
  .sort((a, b) => b.loadedBy.length - a.loadedBy.length || b.gzip - a.gzip);

for (const row of rows) {
  const when = row.loadedBy.length > 0 ? `initial (${row.loadedBy.join(', ')})` : 'later';
  console.log(`${when.padEnd(36)} ${row.file.padEnd(40)} ${kb(row.raw).padStart(11)} ${kb(row.gzip).padStart(11)}`);
}
for (const page of pages) {
  const js = rows.filter((r) => r.file.endsWith('.js') && r.loadedBy.includes(page));
  const sum = (key: 'raw' | 'gzip') => js.reduce((total, r) => total + r[key], 0);
  console.log(`\n${page}: initial JavaScript ${kb(sum('raw'))} raw, ${kb(sum('gzip'))} gzip, in ${js.length} file(s)`);
}
