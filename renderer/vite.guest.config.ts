import { resolve } from 'node:path';
import { mergeConfig } from 'vite';
import kiosk from './vite.config.ts';

/**
 * The register page a guest opens from an invitation (`/p/register/<token>`, docs/kiosk.md, "Pre-registration"):
 * guest.html and its assets, written into renderer/dist beside the kiosk's page by a build of its own, after the
 * kiosk's. It reuses the kiosk's steps (custom fields, picture, agreement) in its own bundle, so the kiosk's page
 * is the same file for file as without it (`npm run bench:renderer-size`).
 */
export default mergeConfig(kiosk, {
  build: {
    emptyOutDir: false,
    rollupOptions: { input: resolve(import.meta.dirname, 'guest.html') },
  },
});
