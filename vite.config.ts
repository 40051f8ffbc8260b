import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The single-page app. `npm start` serves dist/web from the API server on one port; in development
// Vite serves the app on 5173 and forwards /api to the API server.
export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // dist/web/.vite/manifest.json: which chunks each entry loads (bench/first-load.ts reads it).
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
});
