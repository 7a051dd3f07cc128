import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The kiosk page: `npm run build:renderer` writes renderer/dist, which the service serves at `/` under a strict CSP
 * (no inline scripts or styles), so nothing may be inlined into index.html.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // Not node_modules/.vite: build output kept out of node_modules (main/build/build.ts, buildRenderer).
  cacheDir: '../dist/vite',
  plugins: [react()],
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
