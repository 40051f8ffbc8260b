import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The borrower's strings chunk (`<lang>.bundle.ts`) leaves the back office's strings out, and those arrive
 * only with the back office (`lazyStaffComponent`). A borrower screen that uses a staff string would show
 * its raw key. This walks the web app's imports from main.tsx as the bundler does, static and dynamic,
 * except into the staff screens, and checks every literal `t('…')` key it meets is in the borrower chunk —
 * or, past an import that waits for the wallet's strings (`loadWalletStrings`: the wallet, receipt and
 * account pages, an open loan's home), in the borrower chunk or the wallet's (`<lang>.wallet.ts`).
 */
const webRoot = resolve(import.meta.dirname, '..');
const srcRoot = resolve(webRoot, '..');

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g;
const staffEntryPattern = /lazyStaffComponent\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'/g;
const keyPattern = /\bt\(\s*'([A-Za-z]\w*(?:\.\w+)+)'/g;
/** `import('…')` in the same statement as `loadWalletStrings`, with no other import between them. */
const walletEntryPattern = /\bimport\(\s*'([^']+)'\s*\)(?:(?!\bimport\(|;)[\s\S])*?\bloadWalletStrings\b/g;

/**
 * Source files a borrower's browser can run, with the literal string keys each uses; with `beforeWallet`,
 * only those it can run before the wallet's strings are asked for.
 */
function borrowerModules(beforeWallet = false): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const queue = [resolve(webRoot, 'main.tsx')];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (found.has(file) || !/\.tsx?$/.test(file)) continue;
    // Comments aside: they may quote a key as an example.
    const source = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    found.set(
      file,
      [...source.matchAll(keyPattern)].map((match) => match[1] as string),
    );
    const entries = (pattern: RegExp) =>
      [...source.matchAll(pattern)].map((match) => resolveImport(file, match[1] as string));
    const excluded = new Set([
      ...entries(staffEntryPattern),
      ...(beforeWallet ? entries(walletEntryPattern) : []),
    ]);
    for (const match of source.matchAll(importPattern)) {
      const target = resolveImport(file, match[1] as string);
      if (target && !excluded.has(target)) queue.push(target);
    }
  }
  return found;
}

type Tree = { [key: string]: unknown };

/** Whether the strings hold `key`, as i18next looks it up (a plural key as `_one`/`_other`). */
function hasKey(strings: Tree, key: string): boolean {
  const parts = key.split('.');
  let node: unknown = strings;
  for (const [index, part] of parts.entries()) {
    if (typeof node !== 'object' || node === null) return false;
    const record = node as Tree;
    const last = index === parts.length - 1;
    if (last && (typeof record[part] === 'string' || typeof record[`${part}_other`] === 'string'))
      return true;
    node = record[part];
  }
  return false;
}

const missingKeys = (modules: Map<string, string[]>, strings: Tree) =>
  [...modules].flatMap(([file, keys]) =>
    keys.filter((key) => !hasKey(strings, key)).map((key) => `${relative(srcRoot, file)}: ${key}`),
  );

describe('the borrower strings chunk', () => {
  const modules = borrowerModules();
  const beforeWallet = borrowerModules(true);

  it('walks the borrower screens and not the back office', () => {
    const names = [...modules.keys()].map((file) => relative(srcRoot, file));
    expect(names).toContain('web/features/application/components/step1-page.tsx');
    expect(names).toContain('web/features/account/components/privacy-sections.tsx');
    expect(names).toContain('web/features/wallet/components/wallet-page.tsx');
    expect(names).not.toContain('web/app/back-office.tsx');
    expect(names).not.toContain('web/features/users/components/users-page.tsx');
  });

  it('stops at the pages that wait for the wallet strings', () => {
    const names = [...beforeWallet.keys()].map((file) => relative(srcRoot, file));
    expect(names).toContain('web/features/application/components/step1-page.tsx');
    expect(names).toContain('web/features/auth/components/signup-page.tsx');
    for (const page of [
      'web/features/wallet/components/wallet-page.tsx',
      'web/features/wallet/components/receipt-page.tsx',
      'web/features/account/components/account-page.tsx',
      'web/features/application/components/open-loan-home.tsx',
    ]) {
      expect(names).not.toContain(page);
      expect([...modules.keys()].map((file) => relative(srcRoot, file))).toContain(page);
    }
  });

  it.each(['en', 'zh', 'km', 'fil'] as const)('holds every key a borrower screen uses (%s)', async (lang) => {
    const strings = (await import(`./${lang}.bundle.ts`)).default as Tree;
    const wallet = (await import(`./${lang}.wallet.ts`)).default as Tree;
    // Before the wallet's strings are asked for, the borrower chunk alone; after, both.
    expect(missingKeys(beforeWallet, strings)).toEqual([]);
    expect(missingKeys(modules, { ...strings, ...wallet })).toEqual([]);
  });
});
