import { describe, expect, it } from 'vitest';
import { todayIn } from '../../domain/date-text';
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
    // One rule on every screen: at most two decimals, trailing zeros dropped.
    expect(en.percent('0.268242')).toBe('26.82%');
    expect(en.percent('0.125')).toBe('12.5%');
    expect(en.percent(0.6)).toBe('60%');
    const zh = createFormatters({ language: 'zh', timeZone: 'Asia/Manila', na: '不适用' });
    expect(zh.date('2025-03-01T02:30:00.000Z')).toBe('2025年3月1日');
    expect(zh.text(null)).toBe('不适用');
  });
});

describe('Chinese and Khmer dates', () => {
  // Written out by the app, not by Intl: the same text whatever Intl data the browser has.
  const km = createFormatters({ language: 'km', timeZone: 'Asia/Manila', na: 'គ្មាន' });
  const zh = createFormatters({ language: 'zh', timeZone: 'Asia/Manila', na: '不适用' });

  it('name the Khmer month and use the 24-hour clock', () => {
    expect(km.date('2025-03-01T14:30:00.000Z')).toBe('1 មីនា 2025');
    expect(km.time('2025-03-01T14:30:00.000Z')).toBe('22:30');
    expect(km.dateTime('2026-11-23T00:28:00.000Z')).toBe('23 វិច្ឆិកា 2026 08:28');
    expect(km.calendarDate('2026-12-31')).toBe('31 ធ្នូ 2026');
    expect(km.dateTime(null)).toBe('គ្មាន');
  });

  it('write Chinese dates with 年月日 and the 24-hour clock', () => {
    expect(zh.dateTime('2026-11-23T16:05:00.000Z')).toBe('2026年11月24日 00:05');
    expect(zh.calendarDate('2026-03-01')).toBe('2026年3月1日');
  });

  it('write Filipino dates with Filipino month names and the 12-hour clock', () => {
    const fil = createFormatters({ language: 'fil', timeZone: 'Asia/Manila', na: 'Wala' });
    expect(fil.date('2025-03-01T14:30:00.000Z')).toBe('Mar 1, 2025');
    expect(fil.time('2025-03-01T14:30:00.000Z')).toBe('10:30 PM');
    expect(fil.time('2025-03-01T16:05:00.000Z')).toBe('12:05 AM');
    expect(fil.dateTime('2026-11-23T00:28:00.000Z')).toBe('Nob 23, 2026, 8:28 AM');
    expect(fil.calendarDate('2026-08-31')).toBe('Ago 31, 2026');
    expect(fil.money(11_347_152)).toBe('₱113,471.52');
    expect(fil.percent('0.268242')).toBe('26.82%');
    expect(fil.dateTime(null)).toBe('Wala');
  });

  it('never move a calendar date (a due date) by a time zone', () => {
    const far = createFormatters({ language: 'en', timeZone: 'Pacific/Kiritimati', na: 'N/A' });
    expect(far.calendarDate('2026-03-01')).toBe('Mar 1, 2026');
    expect(far.calendarDate('not a date')).toBe('N/A');
  });
});

describe('instants in other time zones', () => {
  it("follow the lender's configured zone", () => {
    const instant = '2026-03-01T17:30:00.000Z';
    // 01:30 the next day in Manila (UTC+8), 00:30 in Phnom Penh (UTC+7).
    const at = (timeZone: string) =>
      createFormatters({ language: 'en', timeZone, na: 'N/A' }).dateTime(instant);
    expect(at('Asia/Manila')).toMatch(/Mar 2, 2026.* 1:30/);
    expect(at('Asia/Phnom_Penh')).toMatch(/Mar 2, 2026.*12:30/);
    expect(at('UTC')).toMatch(/Mar 1, 2026.* 5:30/);
  });
});

describe('todayIn', () => {
  it("is the calendar date in the lender's time zone, each zone on its own", () => {
    // 17:30 UTC on the 26th is already the 27th in Manila (UTC+8) and still the 26th in New York.
    const instant = new Date('2026-11-26T17:30:00Z');
    expect(todayIn('Asia/Manila', instant)).toBe('2026-11-27');
    expect(todayIn('UTC', instant)).toBe('2026-11-26');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-26');
    expect(todayIn('Asia/Manila', new Date('2026-11-26T15:59:59Z'))).toBe('2026-11-26');
  });
});
