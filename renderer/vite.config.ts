import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The app's icon (assets/icon.ico, made by assets/render-icons.ts) as the page's `favicon.ico`, never a copy. */
const favicon: Plugin = {
  name: 'portaria-favicon',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'favicon.ico',
      source: readFileSync(resolve(import.meta.dirname, '../assets/icon.ico')),
    });
  },
};

/**
 * The kiosk page: `npm run build:renderer` writes renderer/dist, which the service serves at `/` under a strict CSP
 * (no inline scripts or styles), so nothing may be inlined into index.html. The register page a guest opens from
 * an invitation is built beside it by vite.guest.config.ts.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // Not node_modules/.vite: build output kept out of node_modules (main/build/build.ts, buildRenderer).
  cacheDir: '../dist/vite',
  plugins: [react(), favicon],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1000,
  },
  server: {
    // `vite` in development: the page's calls go to a running `portaria serve --port 4780`.
    proxy: { '/v1': 'http://127.0.0.1:4780', '/kiosk': 'http://127.0.0.1:4780' },
  },
});
