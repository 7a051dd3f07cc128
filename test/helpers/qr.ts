import { createRequire } from 'node:module';
import jsqrModule from 'jsqr';

// pngjs comes with the qrcode package and has no types of its own: only its synchronous reader is used.
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { read(data: Buffer): { width: number; height: number; data: Buffer } } };
};

// jsqr is CommonJS typed as an ES module: its function is `.default` to TypeScript and to node alike.
const jsQR = jsqrModule.default;

/** The text of the QR code a PNG picture shows (a file, a screenshot), as a gate's reader would see it. */
export function readQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

/** The QR code of a page's `<img src="data:image/png;base64,…">`. */
export function readQrDataUri(uri: string): string | undefined {
  const base64 = /^data:image\/png;base64,(.+)$/.exec(uri)?.[1];
  return base64 === undefined ? undefined : readQrPng(Buffer.from(base64, 'base64'));
}
