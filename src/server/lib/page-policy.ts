import { createHash } from 'node:crypto';
import { readFileSync, type Stats } from 'node:fs';

/** The CSP source (`'sha256-…'`) of each inline script of an HTML page; scripts with `src` have none. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(match[1] ?? '')) continue;
    // Browsers hash the script as parsed, with every CRLF or CR already turned into LF.
    const text = (match[2] ?? '').replace(/\r\n?/g, '\n');
    hashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy of a page of the built app: `policyWith` given the hashes of that page's own
 * inline scripts (index.html starts with one: vite.config.ts), so they run and nothing else inline does.
 * Worked out once per version of the file (its size and time), from the uncompressed page even when the
 * `.br` or `.gz` beside it is what is sent: a rebuild served without a restart gets its own policy.
 */
export function pagePolicies(policyWith: (scriptHashes: readonly string[]) => string) {
  const known = new Map<string, { version: string; policy: string }>();
  return (filePath: string, stat: Pick<Stats, 'size' | 'mtimeMs'>): string => {
    const version = `${stat.size}:${stat.mtimeMs}`;
    const cached = known.get(filePath);
    if (cached?.version === version) return cached.policy;
    let html: string;
    try {
      html = readFileSync(filePath.replace(/\.(br|gz)$/, ''), 'utf8');
    } catch {
      // Caught mid-rebuild (the compressed copy written, the page not yet): no inline script runs this once.
      return policyWith([]);
    }
    const policy = policyWith(inlineScriptHashes(html));
    known.set(filePath, { version, policy });
    return policy;
  };
}
