import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText, storableOrNull, text } from './text';

describe('the one text rule', () => {
  it.each([
    ['plain', 'Maria Santos', true],
    ['Khmer and Chinese', 'ម៉ារីយ៉ា 玛丽亚', true],
    ['an emoji (a surrogate pair)', 'ok 👋', true],
    ['empty', '', true],
    ['NUL', 'a\u0000b', false],
    ['only NUL', '\u0000', false],
    ['a lone high surrogate', 'a\ud83d', false],
    ['a lone low surrogate', '\udc4bb', false],
    ['a reversed pair', '\udc4b\ud83d', false],
  ])('%s → %s', (_name, value, storable) => {
    expect(isStorableText(value)).toBe(storable);
  });

  it('finds the first unstorable string in nested input, keys included', () => {
    expect(findUnstorableText({ a: 'ok', b: [1, 'fine', { c: 'x\u0000' }] })).toEqual(['b', '2', 'c']);
    expect(findUnstorableText({ 'k\ud800': 1 })).toEqual(['k\ud800']);
    expect(findUnstorableText('\u0000')).toEqual([]);
    expect(findUnstorableText({ a: 'ok', n: 1, d: new Date(0), z: null })).toBeNull();
  });

  it('reports the first in document order, a key before its own value', () => {
    expect(findUnstorableText({ a: ['x\u0000'], b: 'y\u0000' })).toEqual(['a', '0']);
    expect(findUnstorableText({ 'k\u0000': 'v\u0000' })).toEqual(['k\u0000']);
    expect(findUnstorableText(['ok', { 'b\ud800': 1 }], ['body'])).toEqual(['body', '1', 'b\ud800']);
  });

  it('walks any depth without overflowing the stack (issue #33: a webhook body 5,000 levels deep)', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = i % 2 ? [deep] : { k: deep };
    const path = findUnstorableText(deep);
    expect(path).toHaveLength(200_000);
    expect(path?.slice(0, 2)).toEqual(['0', 'k']);
  });

  it('text() refuses before any other check, with its own code', () => {
    const schema = text({ error: 'FIELD_REQUIRED' }).trim().min(1, { error: 'FIELD_REQUIRED', abort: true });
    expect(schema.safeParse(' \u0000 ').error?.issues.map((i) => i.message)).toEqual([
      'TEXT_INVALID_CHARACTERS',
    ]);
    expect(schema.safeParse(42).error?.issues[0]?.message).toBe('FIELD_REQUIRED');
    expect(schema.safeParse('  Ana ').data).toBe('Ana');
  });

  it('headers outside any schema are kept only when storable', () => {
    expect(storableOrNull('Mozilla/5.0')).toBe('Mozilla/5.0');
    expect(storableOrNull('bad\u0000')).toBeNull();
    expect(storableOrNull(undefined)).toBeNull();
  });
});
