import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

// The API server (server/, `npm start`) listens on 127.0.0.1:8000. In development the console
// runs on Vite's dev server and these paths go to the API; everything else is the console.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8000';

/**
 * Browser navigations (GET asking for HTML) stay on the console: /password/reset/{id}/{signature}
 * for example is a console page, while POST /password/reset/{id}/{signature} is an API call.
 */
const consolePageOnGet = (req: IncomingMessage): string | undefined =>
  req.method === 'GET' || req.method === 'HEAD' ? '/index.html' : undefined;

const api = (options: Partial<ProxyOptions> = {}): ProxyOptions => ({
  target: apiTarget,
  changeOrigin: false,
  ...options,
});

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': api(),
      '/broadcasting': api(),
      '/register': api({ bypass: consolePageOnGet }),
      '/login': api({ bypass: consolePageOnGet }),
      '/logout': api({ bypass: consolePageOnGet }),
      '/user': api({
        // GET /user is an API call (fetch asks for JSON); a browser navigation asks for HTML.
        bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      }),
      '/email/verification': api({ bypass: consolePageOnGet }),
      '/password/link': api({ bypass: consolePageOnGet }),
      '/password/reset': api({ bypass: consolePageOnGet }),
      '/aup/accept': api({ bypass: consolePageOnGet }),
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
  },
});
