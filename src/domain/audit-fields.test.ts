import { describe, expect, it } from 'vitest';
import {
  type AuditValueWriters,
  auditActions,
  auditChangeLines,
  auditFieldKinds,
  auditLabels,
  auditValueText,
  isAuditAction,
  isAuditTargetType,
} from './audit-fields';

const write: AuditValueWriters = {
  money: (minor) => `P${minor / 100}`,
  date: (iso) => `D${iso}`,
  dateTime: (iso) => `T${iso}`,
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

  it('the catalogue has the same keys in every language, and a label for every field', () => {
    const en = keys(auditLabels.en as Tree).sort();
    for (const lang of Object.keys(auditLabels) as (keyof typeof auditLabels)[]) {
      expect(keys(auditLabels[lang] as Tree).sort(), lang).toEqual(en);
    }
    expect(Object.keys(auditLabels).sort()).toEqual(['en', 'fil', 'km', 'zh']);
    // recordAudit takes only fields with a kind: each of them needs a label to be shown by.
    expect(Object.keys(auditLabels.en.fields).sort()).toEqual(Object.keys(auditFieldKinds).sort());
  });

  it('lists every action of the catalogue as group.name, and knows no other', () => {
    expect(auditActions).toContain('user.totp_enabled');
    expect(auditActions).toContain('complaint.reply');
    expect(auditActions).toHaveLength(
      Object.values(auditLabels.en.actions).reduce((n, names) => n + Object.keys(names).length, 0),
    );
    expect(isAuditAction('loan.hold')).toBe(true);
    expect(isAuditAction('loan')).toBe(false);
    expect(isAuditAction('system.rotate_keys')).toBe(false);
    expect(isAuditTargetType('complaint')).toBe(true);
    expect(isAuditTargetType('config')).toBe(false);
  });

  it('writes a moment with the dateTime writer, and anything that is not one as text', () => {
    expect(auditValueText('receivedAt', '2026-11-20T06:05:09.000Z', write)).toBe('T2026-11-20T06:05:09.000Z');
    expect(auditValueText('receivedAt', 'soon', write)).toBe('soon');
    expect(auditValueText('totp', true, write)).toBe('Yes');
    expect(auditValueText('recoveryCodesLeft', 9, write)).toBe('N9');
  });
});
