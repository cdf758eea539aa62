/**
 * The web UI's build: `npm run build` (after the server's tsc) writes it to dist/web, which the
 * service serves at `/` (src/http/web-ui.ts). Hashed files go to /assets/ (cached as immutable).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  // Preact's automatic JSX runtime (no React plugin needed).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // `npm run dev:web`: the UI with hot reload, the API proxied to a running service.
    proxy: { '/api': process.env.LINEAGE_API ?? 'http://127.0.0.1:5000' },
  },
});
