import { describe, expect, it } from 'vitest';
import { createFormatters, isMissing } from './format';

const en = createFormatters({ language: 'en', timeZone: 'Asia/Manila', na: 'N/A' });

describe('formatters', () => {
  it('show "N/A" for missing values', () => {
    for (const value of [null, undefined, '', '   ']) expect(isMissing(value)).toBe(true);
    expect(isMissing(0)).toBe(false);
    expect(en.text(null)).toBe('N/A');
    expect(en.text('  ')).toBe('N/A');
    expect(en.text(0)).toBe('0');
    expect(en.money(null)).toBe('N/A');
    expect(en.number(undefined)).toBe('N/A');
    expect(en.dateTime(null)).toBe('N/A');
    expect(en.dateTime('not a date')).toBe('N/A');
    expect(en.date('')).toBe('N/A');
    expect(en.percent(null)).toBe('N/A');
  });

  it('format money from centavos, zero included', () => {
    expect(en.money(123_456_789)).toBe('₱1,234,567.89');
    expect(en.money(0)).toBe('₱0.00');
    expect(en.money(5_000_000, { omitZeroCents: true })).toBe('₱50,000');
  });

  it('show instants in the configured time zone', () => {
    // 16:30 UTC on 31 Dec is already 1 Jan in Manila (UTC+8).
    expect(en.date('2024-12-31T16:30:00.000Z')).toBe('Jan 1, 2025');
    expect(en.dateTime('2024-12-31T16:30:00.000Z')).toMatch(/Jan 1, 2025.*12:30/);
    const utc = createFormatters({ language: 'en', timeZone: 'UTC', na: 'N/A' });
    expect(utc.date('2024-12-31T16:30:00.000Z')).toBe('Dec 31, 2024');
  });

  it('format decimal rates as percentages in each language', () => {
    expect(en.percent('0.02')).toBe('2%');
    expect(en.percent('0.268242')).toBe('26.8242%');
    const zh = createFormatters({ language: 'zh', timeZone: 'Asia/Manila', na: '不适用' });
    expect(zh.date('2025-03-01T02:30:00.000Z')).toBe('2025年3月1日');
    expect(zh.text(null)).toBe('不适用');
  });
});

describe('Khmer dates', () => {
  it('are numeric day/month/year with a 24-hour time', () => {
    const km = createFormatters({ language: 'km', timeZone: 'Asia/Manila', na: 'គ្មាន' });
    expect(km.date('2025-03-01T14:30:00.000Z')).toBe('01/03/2025');
    expect(km.time('2025-03-01T14:30:00.000Z')).toBe('22:30');
  });
});
