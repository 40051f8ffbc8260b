import { readdirSync, readFileSync } from 'node:fs';
import type { Language } from '../../src/domain/languages';

type Tree = { [key: string]: string | Tree };
/** A string of the app by its key, its `{{name}}` placeholders filled in. */
export type Strings = (key: string, vars?: Record<string, string | number>) => string;

const readJson = (path: string): Tree => JSON.parse(readFileSync(path, 'utf8')) as Tree;

/**
 * Every string of `lang` (borrower and back office), merged as the app merges them, looked up by key: what
 * a reader of that language sees, so a test finds a button by its words in Khmer as a Khmer reader does.
 */
export function appStrings(lang: Language): Strings {
  const dir = 'src/web/locales';
  const tree: Tree = { ...readJson(`${dir}/${lang}.json`) };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'staff-errors')
      tree[entry.name] = readJson(`${dir}/${entry.name}/${lang}.json`);
  }
  tree.errors = { ...(tree.errors as Tree), ...readJson(`${dir}/staff-errors/${lang}.json`) };
  return (key, vars = {}) => {
    const value = key
      .split('.')
      .reduce<string | Tree | undefined>(
        (node, part) => (typeof node === 'object' ? node[part] : undefined),
        tree,
      );
    if (typeof value !== 'string') throw new Error(`No string ${key} in ${lang}`);
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
  };
}
