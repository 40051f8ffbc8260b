import { describe, expect, it } from 'vitest';
import { type AuditValueWriters, auditChangeLines, auditLabels, auditValueText } from './audit-fields';

const write: AuditValueWriters = {
  money: (minor) => `P${minor / 100}`,
  date: (iso) => `D${iso}`,
  number: (n) => `N${n}`,
  status: (s) => `S:${s}`,
  role: (r) => `R:${r}`,
  yes: 'Yes',
  no: 'No',
  passwordReset: 'Reset',
};

type Tree = { [key: string]: string | Tree };
const keys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );

describe('audit fields', () => {
  it('writes each kind of value its own way, missing values as —', () => {
    expect(auditValueText('amount', 14_000_000, write)).toBe('P140000');
    expect(auditValueText('termMonths', 12, write)).toBe('N12');
    expect(auditValueText('status', 'on_hold', write)).toBe('S:on_hold');
    expect(auditValueText('role', 'finance', write)).toBe('R:finance');
    expect(auditValueText('receivedOn', '2026-11-20', write)).toBe('D2026-11-20');
    expect(auditValueText('mustChangePassword', false, write)).toBe('No');
    expect(auditValueText('reversed', true, write)).toBe('Yes');
    expect(auditValueText('password', 'reset', write)).toBe('Reset');
    expect(auditValueText('statusMessage', null, write)).toBe('—');
    expect(auditValueText('unknownField', { a: 1 }, write)).toBe('{"a":1}');
    expect(
      auditChangeLines({ amount: { before: 100, after: 200 } }, (field) => field.toUpperCase(), write),
    ).toEqual(['AMOUNT: P1 → P2']);
  });

  it('the catalogue has the same keys in every language', () => {
    const en = keys(auditLabels.en as Tree).sort();
    expect(keys(auditLabels.zh as Tree).sort()).toEqual(en);
    expect(keys(auditLabels.km as Tree).sort()).toEqual(en);
  });
});
