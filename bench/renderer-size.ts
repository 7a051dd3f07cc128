/**
 * The kiosk page's JavaScript, as a kiosk downloads it: what index.html loads before the welcome screen shows
 * (its module script and the modules it preloads), and the chunks loaded later on demand. Sizes raw and gzipped
 * (level 9, as a compressing proxy or the packaged app's asar would hold them). Run after `npm run build:renderer`.
 *
 *   node --import tsx bench/renderer-size.ts        (npm run bench:renderer-size)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rendererDist } from '../local-api/kiosk/pages.ts';

const html = readFileSync(join(rendererDist, 'index.html'), 'utf8');
const initial = new Set(
  [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/assets\/([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  ),
);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const rows = readdirSync(join(rendererDist, 'assets'))
  .filter((file) => file.endsWith('.js') || file.endsWith('.css'))
  .map((file) => {
    const bytes = readFileSync(join(rendererDist, 'assets', file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, initial: initial.has(file) };
  })
  .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);

for (const row of rows) {
  console.log(
    `${row.initial ? 'initial' : 'later  '}  ${row.file.padEnd(40)} ${kb(row.raw).padStart(11)} ${kb(row.gzip).padStart(11)}`,
  );
}
const js = rows.filter((r) => r.initial);
const sum = (key: 'raw' | 'gzip') => js.reduce((total, r) => total + r[key], 0);
console.log(`\ninitial JavaScript: ${kb(sum('raw'))} raw, ${kb(sum('gzip'))} gzip, in ${js.length} file(s)`);
