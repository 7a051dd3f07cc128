import { resolve } from 'node:path';
import { mergeConfig } from 'vite';
import kiosk from './vite.config.ts';

/**
 * The console for hosts and administrators (`/console`, docs/console.md): console.html and its assets, written into
 * renderer/dist beside the kiosk's page by a build of its own. Each console page is a chunk of its own, loaded when
 * opened, so the first load carries only the shell; the kiosk's page is the same file for file as without it.
 */
export default mergeConfig(kiosk, {
  build: {
    emptyOutDir: false,
    rollupOptions: { input: resolve(import.meta.dirname, 'console.html') },
  },
});
