import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the first load of /login, /signup or step 1 runs: main.js (main.tsx, what it imports in steps, and
 * their static imports; vite.config.ts puts them in one chunk) and the page's chunk. zod is not part of it
 * (issue #35): the settings and the products are read as the server sends them (it checks them against their
 * schemas on the way out; docs/decisions/052), and each page's rules (and step 1's draft store) come at the
 * reader's first input. A value import of a zod schema anywhere in that closure puts zod's core (~15 KiB
 * gzip) back into the page's first load.
 */
const webRoot = import.meta.dirname;
const srcRoot = resolve(webRoot, '..');

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** The module's static value imports and re-exports (type-only ones are erased), as written. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'|^import\s+'([^']+)'/gms;
  for (const match of source.matchAll(pattern)) {
    if (match[4]) {
      found.push(match[4]);
      continue;
    }
    if (match[1]) continue;
    const names = match[2] ?? '';
    // `import { type A, type B } from` is erased too.
    const braced = /^\{([^}]*)\}$/.exec(names.trim());
    if (braced?.[1]?.split(',').every((name) => !name.trim() || /^type\s/.test(name.trim()))) continue;
    found.push(match[3] as string);
  }
  return found;
}

const dynamicImports = (source: string) =>
  [...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1] as string);

/** Every module reached from `roots` by static imports, with the bare packages each imports. */
function closure(roots: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (found.has(file) || !/\.tsx?$/.test(file)) continue;
    const specifiers = staticImports(readFileSync(file, 'utf8'));
    found.set(
      file,
      specifiers.filter((s) => !s.startsWith('.')),
    );
    for (const specifier of specifiers) {
      const target = resolveImport(file, specifier);
      if (target) queue.push(target);
    }
  }
  return found;
}

const main = resolve(webRoot, 'main.tsx');
const steps = dynamicImports(readFileSync(main, 'utf8'))
  .map((specifier) => resolveImport(main, specifier))
  .filter((file): file is string => file !== null);

describe.each([
  ['/login', 'features/auth/components/login-page.tsx', 'web/components/password-field.tsx'],
  ['/signup', 'features/auth/components/signup-page.tsx', 'web/components/privacy-notice.tsx'],
  // The loan's figures are computed on the page (domain/loan/build-disclosure.ts, without the schemas).
  ['step 1', 'features/application/components/step1-page.tsx', 'domain/loan/build-disclosure.ts'],
])("%s's first load", (_path, page, oneOfItsModules) => {
  const modules = closure([main, ...steps, resolve(webRoot, page)]);

  it('walks main.js and the page', () => {
    const names = [...modules.keys()].map((file) => relative(srcRoot, file));
    expect(names).toContain('web/app/render-app.tsx');
    expect(names).toContain('web/lib/settings.ts');
    expect(names).toContain(`web/${page}`);
    expect(names).toContain(oneOfItsModules);
  });

  it('imports no zod', () => {
    const withZod = [...modules]
      .filter(([, packages]) => packages.some((name) => name === 'zod' || name.startsWith('zod/')))
      .map(([file]) => relative(srcRoot, file));
    expect(withZod).toEqual([]);
  });
});
