import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The browser app lives in web/ and builds to web/dist, which the server serves at `/`.
 * In development (`npm run dev`) Vite serves the page and forwards the live WebSocket and the
 * REST API to a server started separately with `node bin/vedette.js serve` (port 8080).
 */
const server = 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('./web/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Four pages, all built: the live table (index.html, the home page), battle replay
    // (replay.html), the streamer overlay (overlay.html) and the printables (print.html).
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./web/index.html', import.meta.url)),
        replay: fileURLToPath(new URL('./web/replay.html', import.meta.url)),
        overlay: fileURLToPath(new URL('./web/overlay.html', import.meta.url)),
        print: fileURLToPath(new URL('./web/print.html', import.meta.url)),
        // The club or tournament hub's pages (issue #17), served by `vedette hub`.
        'hub/index': fileURLToPath(new URL('./web/hub/index.html', import.meta.url)),
        'hub/table': fileURLToPath(new URL('./web/hub/table.html', import.meta.url)),
        'hub/archive': fileURLToPath(new URL('./web/hub/archive.html', import.meta.url)),
      },
    },
  },
  server: {
    // The server accepts requests that change the table only from its own origin (docs/security.md):
    // the dev proxy presents the page's requests as coming from it.
    proxy: {
      '/live': { target: server, ws: true, changeOrigin: true, headers: { origin: server } },
      '/api': { target: server, changeOrigin: true, headers: { origin: server } },
      '/hub/api': { target: 'http://127.0.0.1:8090', changeOrigin: true },
      '/hub/live': { target: 'http://127.0.0.1:8090', ws: true, changeOrigin: true },
    },
  },
});
