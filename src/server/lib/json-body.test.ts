import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects inside one another, up to the limit and not beyond', () => {
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
  });

  it('counts depth, not how many siblings there are', () => {
    expect(jsonNestsDeeperThan(`[${'{},'.repeat(10_000)}{}]`, 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: 'say \\"[[[[\\" \\\\', b: '[[' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: 'x\\\\', b: [[1]] }), 2)).toBe(true);
  });

  it('reads a megabyte nested all the way down without recursion', () => {
    expect(jsonNestsDeeperThan(nested(500_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
