/**
 * Renders the application icon (assets/icon.svg) into what electron-builder packs: `assets/icons/NxN.png` (Linux
 * takes the folder) and `assets/icon.ico` (Windows: every size up to 256 × 256 in one file, so small icons are drawn
 * at their size rather than scaled down by Windows). The files are committed; run this after changing the SVG:
 *
 *   node --import tsx assets/render-icons.ts [--chromium /usr/bin/chromium]
 *
 * Chromium draws the SVG (playwright-core, a dev dependency), on a transparent background.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const sizes = [16, 32, 48, 64, 128, 256, 512];
/** An .ico holds sizes up to 256 (its size fields are one byte, 0 meaning 256). */
const icoSizes = sizes.filter((size) => size <= 256);

/** An .ico file of PNG images (Windows Vista and later read PNG entries): header, directory, then the images. */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size % 256, 0);
    entry.writeUInt8(size % 256, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}
const { values } = parseArgs({ options: { chromium: { type: 'string', default: '/usr/bin/chromium' } } });
const svg = readFileSync(join(import.meta.dirname, 'icon.svg'), 'utf8');
const outDir = join(import.meta.dirname, 'icons');
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({ executablePath: values.chromium });
const rendered: { size: number; png: Buffer }[] = [];
try {
  for (const size of sizes) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const image = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="${image}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    const png = await page.screenshot({ path: join(outDir, `${size}x${size}.png`), omitBackground: true });
    rendered.push({ size, png });
    await page.close();
  }
} finally {
  await browser.close();
}
writeFileSync(join(import.meta.dirname, 'icon.ico'), ico(rendered.filter(({ size }) => icoSizes.includes(size))));
process.stdout.write(`Rendered ${sizes.map((size) => `${size}x${size}`).join(', ')} into ${outDir}, and icon.ico\n`);
