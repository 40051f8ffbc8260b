import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type IndexHtmlTransformContext, type Plugin } from 'vite';
import { bootScript, type FirstRequests } from './scripts/boot-script.ts';
import { loadingScreenLook } from './src/web/app/theme.ts';

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

/**
 * Keeps the app's stylesheet from holding back the first paint: index.html preloads it (same priority, same
 * file) and src/web/lib/app-styles.ts applies it before the app's first render. The loading screen needs
 * none of it (its own small style is inline, loadingScreenInHtml), so a phone draws it as soon as the page
 * arrives instead of after the stylesheet too.
 */
function stylesAfterFirstPaint(): Plugin {
  return {
    name: 'hiram-styles-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g;
        if (!links.test(html)) throw new Error("index.html has no stylesheet link in Vite's form");
        return html.replace(links, '<link rel="preload" as="style" crossorigin href="$1" data-app-styles>');
      },
    },
  };
}

/**
 * path → page module (and whether it waits for the wallet's strings), from every
 * `lazyPage(() => import('…'), { preloadOn: [...], strings: loadWalletStrings })` under src/web.
 */
async function pagesByPath() {
  const pages = new Map<string, { module: string; walletStrings: boolean }>();
  const files = (await readdir('src/web', { recursive: true })).filter(
    (f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx'),
  );
  for (const file of files) {
    const path = join('src/web', file);
    // Each call's own text, up to the next call (the function's own definition is no call).
    for (const own of readFileSync(path, 'utf8')
      .split(/(?<!function )\blazyPage\(/)
      .slice(1)) {
      if (!own.includes('preloadOn')) continue;
      const spec = /^\s*\(\)\s*=>\s*import\('([^']+)'\)/.exec(own)?.[1];
      const list = /preloadOn:\s*\[([^\]]*)\]/.exec(own)?.[1];
      const items =
        list
          ?.split(',')
          .map((item) => item.trim())
          .filter(Boolean) ?? [];
      if (!spec || list === undefined || items.some((item) => !/^'[^']+'$/.test(item)))
        throw new Error(
          `${path}: write each preloadOn as lazyPage(() => import('…'), { preloadOn: ['/path'] })`,
        );
      const module = ['.tsx', '.ts'].map((ext) => resolve(dirname(path), spec) + ext).find(existsSync);
      if (!module) throw new Error(`${path}: cannot find ${spec}`);
      // The options of this call alone: up to the end of its preloadOn object.
      const options = own.slice(0, own.indexOf('})') + 2);
      const walletStrings = /\bstrings:\s*loadWalletStrings\b/.test(options);
      for (const item of items) {
        const url = item.slice(1, -1);
        const claimed = pages.get(url);
        if (claimed && claimed.module !== module)
          throw new Error(`${url} is preloadOn of both ${claimed.module} and ${module}`);
        pages.set(url, { module, walletStrings });
      }
    }
  }
  return pages;
}

/**
 * boot.js's table of first requests, from the build: per path, the chunks, styles and pictures of the page
 * that path shows first (its `preloadOn` paths in the routes files, the one place that says which page a path
 * starts with), and per language its strings' chunk. boot.js fetches the reader's share at once, alongside
 * main.js, instead of after main.js has run: on a phone each of those was a round trip later.
 */
async function firstRequests(
  bundle: NonNullable<IndexHtmlTransformContext['bundle']>,
): Promise<FirstRequests> {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  // The staged start's steps must be in main.tsx's own chunk (firstLoadChunk), not a request each.
  const starter = chunks.find((chunk) => chunk.moduleIds.includes(entryModule));
  if (!starter?.moduleIds.some((id) => id.endsWith('/src/web/app/render-app.tsx')))
    throw new Error(
      `The start's steps are not in main.tsx's chunk (${starter?.fileName}): see firstLoadChunk`,
    );
  // What index.html already loads: the entry and what it imports.
  const entry = chunks.find((chunk) => chunk.isEntry);
  const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
  const loadedStyles = new Set(
    chunks.flatMap((chunk) =>
      loaded.has(chunk.fileName) ? [...(chunk.viteMetadata?.importedCss ?? [])] : [],
    ),
  );
  const url = (file: string) => `/${file}`;
  const pages: FirstRequests['pages'] = {};
  for (const [path, { module, walletStrings }] of await pagesByPath()) {
    const page = chunks.find((chunk) => chunk.facadeModuleId === module);
    if (!page) throw new Error(`No chunk for ${module} (preloaded on ${path})`);
    const closure: string[] = [];
    const visit = (file: string) => {
      if (loaded.has(file) || closure.includes(file)) return;
      closure.push(file);
      for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
    };
    visit(page.fileName);
    const meta = closure.map((file) => byFile.get(file)?.viteMetadata);
    pages[path] = {
      scripts: closure.map(url),
      styles: [...new Set(meta.flatMap((m) => [...(m?.importedCss ?? [])]))]
        .filter((f) => !loadedStyles.has(f))
        .map(url),
      pictures: [...new Set(meta.flatMap((m) => [...(m?.importedAssets ?? [])]))]
        .filter((f) => /\.(svg|png|jpe?g|webp|avif)$/.test(f))
        .map(url),
      ...(walletStrings ? { walletStrings: true as const } : {}),
    };
  }
  const strings: Record<string, string> = {};
  const walletStrings: Record<string, string> = {};
  for (const chunk of chunks) {
    const [, lang, set] =
      /src\/web\/locales\/([a-z]+)\.(bundle|wallet)\.ts$/.exec(chunk.facadeModuleId ?? '') ?? [];
    if (lang && set === 'bundle') strings[lang] = url(chunk.fileName);
    if (lang && set === 'wallet') walletStrings[lang] = url(chunk.fileName);
  }
  if (!strings.en) throw new Error('No chunk for the English strings (src/web/locales/en.bundle.ts)');
  if (!walletStrings.en)
    throw new Error("No chunk for the wallet's English strings (src/web/locales/en.wallet.ts)");
  return { strings, walletStrings, pages };
}

/**
 * Writes src/web/boot.js into index.html as an inline script: it must run before the first paint (it sets the
 * saved colour scheme and language, and zod's jitless mode before any schema is built), and as a file it was
 * a request that held the first paint back by a round trip. Bundled and minified (scripts/boot-script.ts).
 * The server allows it by its hash alone (src/server/lib/page-policy.ts); no other inline script runs. In
 * development its table of first requests is empty: nothing is fetched early.
 */
function bootScriptInHtml(): Plugin {
  const marker = '<!-- boot-script -->';
  return {
    name: 'hiram-boot-script',
    transformIndexHtml: {
      order: 'post',
      async handler(html, context) {
        if (!html.includes(marker)) throw new Error(`index.html has no ${marker}`);
        const table: FirstRequests = context.bundle
          ? await firstRequests(context.bundle)
          : { strings: {}, walletStrings: {}, pages: {} };
        const code = await bootScript(table);
        return html.replace(marker, () => `<script>${code}</script>`);
      },
    },
  };
}

/**
 * Puts the "Loading..." screen (SPEC §2.1) into index.html itself, in every shipped language, so a phone
 * shows it as soon as the page and its stylesheet arrive instead of a blank screen while the app's
 * JavaScript downloads and runs; React replaces it on its first render. boot.js has already set `<html
 * lang>` from the saved language, and the styles show only that language's text. The texts are
 * `common.loading` from src/web/locales/<lang>.json, the same strings the app's own loading screen uses.
 */
function loadingScreenInHtml(): Plugin {
  const localeDir = 'src/web/locales';
  return {
    name: 'hiram-loading-screen',
    async transformIndexHtml(html) {
      const languages = (await readdir(localeDir))
        .filter((name) => /^[a-z]{2,3}\.json$/.test(name))
        .map((name) => name.slice(0, -'.json'.length))
        .sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));
      const texts = languages.map((lang) => {
        const strings = JSON.parse(readFileSync(join(localeDir, `${lang}.json`), 'utf8'));
        const text = strings?.common?.loading;
        if (typeof text !== 'string' || !text) throw new Error(`${lang}.json has no common.loading`);
        return { lang, text: text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) };
      });
      const spans = texts.map(({ lang, text }) => `<span lang="${lang}">${text}</span>`).join('');
      // Same place, size, font and colours as LoadingScreen (Mantine's Center, Loader and dimmed Text),
      // from the theme itself: Mantine's variables for it arrive only with the app.
      const look = loadingScreenLook();
      // The page itself as Mantine's global styles draw it, which now apply only when the app starts.
      const scheme = (name: 'light' | 'dark') =>
        `[data-mantine-color-scheme="${name}"]{color-scheme:${name}}` +
        `[data-mantine-color-scheme="${name}"] body{background-color:${look[name].background}}` +
        `[data-mantine-color-scheme="${name}"] .boot-status{color:${look[name].text}}` +
        `[data-mantine-color-scheme="${name}"] .boot-status>i{border-color:${look[name].spinner};border-left-color:transparent}`;
      const style = [
        'body{margin:0}',
        '.boot-status{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;',
        `gap:10px;font-family:${look.fontFamily};font-size:16px;line-height:1.55}`,
        '.boot-status>span{display:none}',
        ...texts.map(({ lang }) => `html[lang="${lang}"] .boot-status>span[lang="${lang}"]{display:inline}`),
        '.boot-status>i{width:36px;height:36px;border-radius:50%;border:4.5px solid;animation:boot-spin 1.2s linear infinite}',
        scheme('light'),
        scheme('dark'),
        '@keyframes boot-spin{to{transform:rotate(360deg)}}',
      ].join('');
      const screen = `<div class="boot-status" role="status" aria-live="polite"><i></i>${spans}</div>`;
      if (!html.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root');
      return html
        .replace('</head>', () => `<style>${style}</style>\n  </head>`)
        .replace('<div id="root"></div>', () => `<div id="root">${screen}</div>`);
    },
  };
}

/**
 * Fails the build when a chunk can draw a Mantine component without that component's styles: the first
 * load carries only src/web/lib/styles/first-load.css (every first load waits for it, so only what the sign-in and
 * step-1 pages draw), and everything else must bring src/web/lib/styles/all.ts. A chunk has all of
 * Mantine's styles when it or a chunk it statically imports contains all.ts (Vite loads those chunks' CSS
 * before running it), or when every chunk that imports it, statically or lazily, has them (it cannot run
 * before them). The entry has only what it brings itself.
 */
function checkMantineStyles(): Plugin {
  const firstLoadCss = 'src/web/lib/styles/first-load.css';
  const allStylesModule = /\/src\/web\/lib\/styles\/all\.ts$/;
  const stylesDir = 'node_modules/@mantine/core/styles';
  return {
    name: 'hiram-check-mantine-styles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const listed = new Set(
        [...readFileSync(firstLoadCss, 'utf8').matchAll(/@mantine\/core\/styles\/(\w+)\.layer\.css/g)].map(
          (match) => match[1],
        ),
      );
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const importers = new Map<string, string[]>();
      for (const chunk of chunks)
        for (const imported of [...chunk.imports, ...chunk.dynamicImports])
          importers.set(imported, [...(importers.get(imported) ?? []), chunk.fileName]);
      const bringsAll = (file: string, seen = new Set<string>()): boolean => {
        if (seen.has(file)) return false;
        seen.add(file);
        const chunk = byFile.get(file);
        if (!chunk) return false;
        return (
          chunk.moduleIds.some((id) => allStylesModule.test(id)) ||
          chunk.imports.some((i) => bringsAll(i, seen))
        );
      };
      const memo = new Map<string, boolean>();
      const covered = (file: string): boolean => {
        const known = memo.get(file);
        if (known !== undefined) return known;
        memo.set(file, false); // an import cycle does not cover itself
        const chunk = byFile.get(file);
        const from = importers.get(file) ?? [];
        const result =
          bringsAll(file) || (!!chunk && !chunk.isEntry && from.length > 0 && from.every(covered));
        memo.set(file, result);
        return result;
      };
      const problems: string[] = [];
      for (const chunk of chunks) {
        if (covered(chunk.fileName)) continue;
        const missing = new Set<string>();
        for (const id of chunk.moduleIds.filter((m) => (chunk.modules[m]?.renderedLength ?? 0) > 0)) {
          const component = /@mantine\/core\/esm\/components\/(\w+)\//.exec(id)?.[1];
          if (component && !listed.has(component) && existsSync(join(stylesDir, `${component}.layer.css`)))
            missing.add(component);
        }
        if (missing.size > 0)
          problems.push(
            `${chunk.name} (${chunk.facadeModuleId ?? chunk.fileName}) draws ${[...missing].join(', ')} ` +
              `without their styles: import src/web/lib/styles/all.ts in it, or add them to ${firstLoadCss}`,
          );
      }
      if (problems.length > 0) this.error(`Mantine styles missing:\n${problems.join('\n')}`);
    },
  };
}

/**
 * react-router's package sends every import to its development build, which differs from its production build
 * only by a flag that keeps the development warnings (their checks and texts, ~0.5 KiB gzip of every first
 * load). The build takes the production one; `npm run dev` keeps the warnings.
 */
function reactRouterProductionBuild(): Plugin {
  const production = fileURLToPath(
    new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
  );
  return {
    name: 'hiram-react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      if (source !== 'react-router') return null;
      if (!existsSync(production)) this.error(`react-router's production build is not at ${production}`);
      return production;
    },
  };
}

const entryModule = fileURLToPath(new URL('./src/web/main.tsx', import.meta.url));
/**
 * The chunk every page loads: main.tsx and the modules it imports in steps (docs/decisions/029), with all
 * their dependencies. Its dynamic imports would otherwise each become a chunk fetched one step later.
 */
function firstLoadChunk(
  id: string,
  ctx: { getModuleInfo(id: string): { dynamicallyImportedIds: readonly string[] } | null },
) {
  if (id === entryModule || ctx.getModuleInfo(entryModule)?.dynamicallyImportedIds.includes(id))
    return 'main';
  return null;
}

// The single-page app. `npm start` serves dist/web from the API server on one port; in development
// Vite serves the app on 5173 and forwards /api to the API server.
export default defineConfig({
  plugins: [
    react(),
    reactRouterProductionBuild(),
    bootScriptInHtml(),
    loadingScreenInHtml(),
    stylesAfterFirstPaint(),
    checkMantineStyles(),
    precompress(),
  ],
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // No source maps: everything in dist/web is served to anyone, and a map hands out the app's sources
    // (issue #34). Development (`npm run dev`) has Vite's own.
    sourcemap: false,
    // dist/web/.vite/manifest.json: which chunks each entry loads (bench/first-load.ts reads it).
    manifest: true,
    // Everything every page loads (the entry's static imports: React, the router, Mantine's core,
    // i18next…) in one chunk rather than in the pieces the lazy pages also share: one request, and ~10 KiB
    // less gzip than split (no cross-chunk imports, one compression window; docs/decisions/023).
    // Small chunks that lazy pages share (Mantine's inputs, form helpers…) are copied into each page's chunk
    // instead: /login's page then comes in 3 requests instead of 19, which a phone on HTTP/1.1 (6 connections)
    // fetches in one round trip rather than four (LCP ~0.3 s sooner in Lighthouse's mobile run). The cost:
    // ~16% more JavaScript across all chunks (the copies), none of it on a first load. Needs entry
    // signatures left free (an app, not a library).
    rolldownOptions: {
      preserveEntrySignatures: false,
      // main.tsx imports in steps modules that other modules also import statically: the steps split the
      // start into tasks, not into chunks (firstLoadChunk keeps them in one), so the warning does not apply.
      checks: { ineffectiveDynamicImport: false },
      output: {
        codeSplitting: {
          groups: [
            // All of Mantine's styles (src/web/lib/styles/all.ts): one stylesheet that every page needing
            // them shares, rather than a copy in each page's own.
            {
              name: 'mantine-styles',
              test: /(src[\\/]web[\\/]lib[\\/]styles[\\/]all\.ts|@mantine[\\/]core[\\/]styles\.layer\.css)$/,
            },
            { name: firstLoadChunk, debugName: 'main' },
            // zod's core (not its JSON Schema generator, which only classic zod's pages use) with the settings'
            // and products' schemas: one chunk, fetched with the first page or form rules that need it. The
            // first loads of /login, /signup and step 1 fetch none of it: their rules come at the first input
            // and the settings and products are read unparsed (issue #35, docs/decisions/048 and 052).
            {
              name: 'zod',
              test: /(node_modules[\\/]zod[\\/]v4[\\/](mini[\\/]|core[\\/](?!to-json-schema|json-schema|memoizer))|src[\\/]domain[\\/]schemas[\\/](settings|offered-products)\.ts$)/,
            },
          ],
          experimentalInlineCommonChunks: { maxSize: 16 * 1024 },
        },
      },
    },
    // That chunk is ~470 kB before compression (~143 KiB gzip), on purpose.
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
});
