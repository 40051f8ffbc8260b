import { build } from 'esbuild';

/** boot.js's table of first requests (its `__FIRST_REQUESTS__`): by language and by path, the files to fetch. */
export type FirstRequests = {
  strings: Record<string, string>;
  /** Per language, the wallet's strings (`<lang>.wallet.ts`), which a page marked `walletStrings` waits for. */
  walletStrings: Record<string, string>;
  pages: Record<string, { scripts: string[]; styles: string[]; pictures: string[]; walletStrings?: true }>;
};

/**
 * src/web/boot.js as index.html carries it inline (vite.config.ts, bootScriptInHtml): bundled, so it picks
 * the language by the app's own rule (src/web/lib/reader-language.ts and the domain's language list) rather
 * than a copy of it, minified (comments and all: every first load downloads it), and with `firstRequests`
 * written in.
 */
export async function bootScript(firstRequests: FirstRequests): Promise<string> {
  const built = await build({
    entryPoints: ['src/web/boot.js'],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    define: { __FIRST_REQUESTS__: JSON.stringify(firstRequests) },
  });
  const code = built.outputFiles[0]!.text.trim();
  if (/<\/script/i.test(code)) throw new Error('src/web/boot.js must not contain </script');
  return code;
}
