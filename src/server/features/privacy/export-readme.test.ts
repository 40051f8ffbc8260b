import { describe, expect, it } from 'vitest';
import { exportReadme, readmeTexts } from './export-readme';

type Tree = { [key: string]: string | readonly string[] | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else if (Array.isArray(value)) {
      for (const [i, line] of value.entries()) out[`${path}.${i}`] = line as string;
    } else Object.assign(out, flatten(value as Tree, path));
  }
  return out;
}

const texts = Object.fromEntries(
  Object.entries(readmeTexts).map(([language, t]) => [language, flatten(t as unknown as Tree)]),
);

describe("the export's README texts (issue #36)", () => {
  it.each(['fil', 'zh', 'km'])('%s says everything en says, translated, none empty', (language) => {
    const en = texts.en!;
    const other = texts[language]!;
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    expect(Object.entries(other).filter(([, text]) => !text.trim())).toEqual([]);
    // Placeholders survive translation; a few words are the same in Filipino (Loan number, …) but not whole texts.
    for (const [key, text] of Object.entries(en)) {
      expect([key, other[key]!.match(/\{\w+\}/g)]).toEqual([key, text.match(/\{\w+\}/g)]);
    }
    const copies = Object.keys(en).filter((key) => other[key] === en[key] && en[key]!.length > 12);
    expect(copies).toEqual([]);
  });

  it('fills in the date, the time zone by its place and its offset', () => {
    const readme = exportReadme('zh', {
      now: new Date('2026-11-23T16:30:00Z'),
      timeZone: 'Asia/Manila',
      channels: [{ code: 'gcash', name: 'GCash' }],
    });
    expect(readme).toContain('截至 2026年11月24日');
    expect(readme).toContain('菲律宾标准时间为 UTC+8');
    expect(readme).toContain('gcash = GCash');
    expect(readme).not.toMatch(/\{\w+\}/);
  });
});
