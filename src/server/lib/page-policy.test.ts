import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineScriptHashes, pagePolicies } from './page-policy';

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes each inline script exactly as written, and skips scripts with src', () => {
    const html =
      '<script>a()</script><script type="module" src="/x.js"></script>\n<SCRIPT data-x>\n  b();\n</SCRIPT >';
    expect(inlineScriptHashes(html)).toEqual([hash('a()'), hash('\n  b();\n')]);
    expect(inlineScriptHashes('<p>no scripts</p>')).toEqual([]);
    // A page saved with Windows line endings: hashed as the browser parses it.
    expect(inlineScriptHashes('<script>\r\n  b();\r\n</script>')).toEqual([hash('\n  b();\n')]);
  });
});

describe('pagePolicies', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a page once per version, and allows no inline script when the page cannot be read', () => {
    dir = mkdtempSync(join(tmpdir(), 'hiram-policy-'));
    const page = join(dir, 'index.html');
    writeFileSync(page, '<script>one()</script>');
    const calls: string[][] = [];
    const policyFor = pagePolicies((hashes) => {
      calls.push([...hashes]);
      return hashes.join(' ');
    });
    expect(policyFor(page, { size: 1, mtimeMs: 1 })).toBe(hash('one()'));
    writeFileSync(page, '<script>two()</script>');
    expect(policyFor(page, { size: 1, mtimeMs: 1 })).toBe(hash('one()'));
    expect(policyFor(page, { size: 2, mtimeMs: 2 })).toBe(hash('two()'));
    expect(policyFor(`${page}.br`, { size: 3, mtimeMs: 3 })).toBe(hash('two()'));
    expect(calls).toHaveLength(3);
    expect(policyFor(join(dir, 'missing.html'), { size: 1, mtimeMs: 1 })).toBe('');
  });
});
