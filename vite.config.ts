import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `.br` and `.gz` next to every text file of the build (not source maps), at the highest levels:
 * the server sends them as they are (@fastify/static `preCompressed`), so nothing is compressed per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hiram-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

// The single-page app. `npm start` serves dist/web from the API server on one port; in development
// Vite serves the app on 5173 and forwards /api to the API server.
export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // dist/web/.vite/manifest.json: which chunks each entry loads (bench/first-load.ts reads it).
    manifest: true,
    // Everything every page loads (the entry's static imports: React, the router, Mantine's core, i18next,
    // zod's core…) in one chunk rather than in the pieces the lazy pages also share: one request, and ~10 KiB
    // less gzip than split (no cross-chunk imports, one compression window; docs/decisions/023).
    // Small chunks that lazy pages share (Mantine's inputs, form helpers…) are copied into each page's chunk
    // instead: /login's page then comes in 3 requests instead of 19, which a phone on HTTP/1.1 (6 connections)
    // fetches in one round trip rather than four (LCP ~0.3 s sooner in Lighthouse's mobile run). The cost:
    // ~16% more JavaScript across all chunks (the copies), none of it on a first load. Needs entry
    // signatures left free (an app, not a library).
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          groups: [{ name: 'initial', tags: ['$initial'] }],
          experimentalInlineCommonChunks: { maxSize: 16 * 1024 },
        },
      },
    },
    // That chunk is ~510 kB before compression (~153 KiB gzip), on purpose.
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
});
