import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatLoanNumber,
  isLoanNumber,
  loanNumberSearchText,
  loanNumbersIn,
  matchLoanReference,
  normaliseLoanReference,
} from './loan-number';

describe('formatLoanNumber', () => {
  it('pads the sequence to six digits and keeps more past 999,999', () => {
    expect(formatLoanNumber('26', 2)).toBe('HL-26-000002');
    expect(formatLoanNumber('07', 123_456)).toBe('HL-07-123456');
    expect(formatLoanNumber('26', 1_000_000)).toBe('HL-26-1000000');
  });

  it('refuses what is not a year or a sequence', () => {
    expect(() => formatLoanNumber('2026', 1)).toThrow();
    expect(() => formatLoanNumber('26', 0)).toThrow();
    expect(() => formatLoanNumber('26', 1.5)).toThrow();
  });

  it('recognises canonical numbers only', () => {
    expect(isLoanNumber('HL-26-000002')).toBe(true);
    expect(isLoanNumber('HL-26-1000000')).toBe(true);
    for (const bad of ['HL26000002', 'hl-26-000002', 'HL-26-2', 'HL-26-0000002', 'HL-2026-000002', '']) {
      expect(isLoanNumber(bad), bad).toBe(false);
    }
  });
});

describe('normaliseLoanReference', () => {
  it.each([
    'HL-26-000002',
    'HL26000002',
    'hl-26-2',
    '26-000002',
    'HL 26 000002',
    ' hl26-000002 ',
    'Hl.26.000002',
    'HL_26_000002',
    'HL-26-0000002',
    'HL–26—000002',
    'HL - 26 - 000002',
    'ＨＬ－２６－０００００２',
    'HL2600000002',
    'hl 26 02',
  ])('reads %j as HL-26-000002', (typed) => {
    expect(normaliseLoanReference(typed)).toBe('HL-26-000002');
  });

  it('reads sequences past 999,999', () => {
    expect(normaliseLoanReference('HL261234567')).toBe('HL-26-1234567');
    expect(normaliseLoanReference('hl-26-1234567')).toBe('HL-26-1234567');
  });

  it.each([
    ['an empty string', ''],
    ['spaces', '   '],
    ['a phone number', '09171234567'],
    ['a phone number with dashes', '0917-123-4567'],
    ['an international phone number', '+63 917 123 4567'],
    ['a landline', '02-81234567'],
    ['an amount', '1,500.00'],
    ['an amount with a dot', '26.50'],
    ['a bare number', '26000002'],
    ['a short number without the prefix', '26-2'],
    ['another lender’s prefix', 'XL-26-000002'],
    ['a prefix glued to more letters', 'HLX-26-000002'],
    ['letters in the sequence', 'HL-26-00000A'],
    ['a short number run together', 'HL262'],
    ['a sequence of zeros', 'HL-26-000000'],
    ['a four-digit year', 'HL-2026-000002'],
    ['a one-digit year', 'HL-6-000002'],
    ['a third group', 'HL-26-000002-1'],
    ['the prefix alone', 'HL'],
    ['the old example without a year', 'HL-000123'],
    ['a slash', 'HL/26/000002'],
    ['a free-text memo', 'Payment for HL-26-000002'],
    ['a date', '2026-11-23'],
    ['too many digits', 'HL-26-0001234567890'],
  ])('refuses %s', (_, typed) => {
    expect(normaliseLoanReference(typed)).toBeNull();
  });
});

describe('loanNumberSearchText', () => {
  it('drops separators and case for a contains search', () => {
    expect(loanNumberSearchText(' hl-26 0000 ')).toBe('HL260000');
    expect(loanNumberSearchText('２６－０００')).toBe('26000');
    expect(loanNumberSearchText(' - ')).toBe('');
  });
});

describe('loanNumbersIn', () => {
  it('finds a loan number inside a memo', () => {
    expect(loanNumbersIn('Payment for HL-26-000002 thanks')).toEqual(['HL-26-000002']);
    expect(loanNumbersIn('bayad (hl26000002), salamat!')).toEqual(['HL-26-000002']);
    expect(loanNumbersIn('HL 26 2')).toEqual(['HL-26-000002']);
    expect(loanNumbersIn('HL-26-000002 500.00')).toEqual(['HL-26-000002']);
  });

  it('finds each distinct one once', () => {
    expect(loanNumbersIn('HL-26-000002 and hl26000002')).toEqual(['HL-26-000002']);
    expect(loanNumbersIn('HL-26-000002 / HL-26-000003')).toEqual(['HL-26-000002', 'HL-26-000003']);
  });

  it('needs the prefix, free-standing, and no guess where a short sequence ends', () => {
    expect(loanNumbersIn('loan 26-000002')).toEqual([]);
    expect(loanNumbersIn('SCHL-26-000002')).toEqual([]);
    expect(loanNumbersIn('HL-26-000002X')).toEqual([]);
    expect(loanNumbersIn('HL 26 2 500')).toEqual([]);
    expect(loanNumbersIn('HL262 pesos')).toEqual([]);
    expect(loanNumbersIn('')).toEqual([]);
    expect(loanNumbersIn(null)).toEqual([]);
  });
});

describe('matchLoanReference', () => {
  it('one loan named in the reference or the memo is a match', () => {
    expect(matchLoanReference('HL26000002')).toEqual({ kind: 'one', loanNumber: 'HL-26-000002' });
    expect(matchLoanReference('GCash payment', 'For HL-26-000002 thanks')).toEqual({
      kind: 'one',
      loanNumber: 'HL-26-000002',
    });
    expect(matchLoanReference('26-000002', 'my loan HL-26-2')).toEqual({
      kind: 'one',
      loanNumber: 'HL-26-000002',
    });
  });

  it('two loans named is ambiguous; none is none', () => {
    expect(matchLoanReference('HL-26-000002', 'HL-26-000003')).toEqual({
      kind: 'ambiguous',
      loanNumbers: ['HL-26-000002', 'HL-26-000003'],
    });
    expect(matchLoanReference('09171234567', 'salamat')).toEqual({ kind: 'none' });
    expect(matchLoanReference(null)).toEqual({ kind: 'none' });
  });
});

/** A canonical loan number: any year, a sequence up to nine digits. */
const loanNumber = fc
  .record({ year: fc.integer({ min: 0, max: 99 }), sequence: fc.integer({ min: 1, max: 999_999_999 }) })
  .map(({ year, sequence }) => ({
    year: String(year).padStart(2, '0'),
    sequence,
    number: formatLoanNumber(String(year).padStart(2, '0'), sequence),
  }));

const separator = fc.constantFrom('-', ' ', '.', '_', '–', ' - ', '  ', '\u2011');
const caseOf = (text: string, upper: boolean[]) =>
  [...text].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase())).join('');

describe('properties', () => {
  it('a canonical number reads as itself', () => {
    fc.assert(fc.property(loanNumber, ({ number }) => normaliseLoanReference(number) === number));
  });

  it('every way of writing it reads as the canonical number', () => {
    fc.assert(
      fc.property(
        loanNumber,
        fc.record({
          prefix: fc.boolean(),
          upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
          afterPrefix: fc.option(separator, { nil: '' }),
          between: fc.option(separator, { nil: '' }),
          extraZeros: fc.integer({ min: 0, max: 3 }),
          dropZeros: fc.boolean(),
          lead: fc.constantFrom('', ' ', '  ', '\t'),
          trail: fc.constantFrom('', ' ', '\n'),
        }),
        ({ year, sequence, number }, v) => {
          const padded = String(sequence).padStart(6, '0');
          let digits = v.dropZeros ? String(sequence) : '0'.repeat(v.extraZeros) + padded;
          // The forms the rules accept: without the prefix, separated and exactly six digits; run together,
          // with the prefix and at least six digits.
          let between = v.between;
          if (!v.prefix) {
            if (digits.length !== 6) digits = padded;
            if (digits.length !== 6) return true; // past 999,999 the prefix is needed
            if (between === '') between = '-';
          } else if (between === '' && digits.length < 6) {
            digits = padded;
          }
          const prefix = v.prefix ? caseOf('HL', v.upper) + v.afterPrefix : '';
          const typed = `${v.lead}${prefix}${year}${between}${digits}${v.trail}`;
          expect(normaliseLoanReference(typed), typed).toBe(number);
          return true;
        },
      ),
    );
  });

  it('a number written in a memo is found', () => {
    fc.assert(
      fc.property(
        loanNumber,
        fc.constantFrom('Payment for ', 'bayad ', '', '(', 'ref: '),
        fc.constantFrom(' thanks', '', ')', '.', ', salamat'),
        ({ number }, before, after) => {
          expect(loanNumbersIn(`${before}${number}${after}`)).toEqual([number]);
        },
      ),
    );
  });

  it('random strings never throw and almost never read as a loan number', () => {
    let read = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        runs += 1;
        if (normaliseLoanReference(text) !== null) read += 1;
        loanNumbersIn(text);
        matchLoanReference(text, text);
      }),
      { numRuns: 2000 },
    );
    expect(read / runs).toBeLessThan(0.01);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        normaliseLoanReference(text);
        loanNumbersIn(text);
      }),
    );
  });

  it('phone numbers, amounts and other lenders’ references never read as a loan number', () => {
    const mobile = fc
      .integer({ min: 0, max: 999_999_999 })
      .chain((n) =>
        fc.constantFrom(
          `09${String(n).padStart(9, '0')}`,
          `+639${String(n).padStart(9, '0')}`,
          `0917-${String(n).padStart(9, '0').slice(0, 3)}-${String(n).slice(0, 4).padStart(4, '0')}`,
        ),
      );
    const amount = fc
      .integer({ min: 1, max: 10_000_000_00 })
      .map((minor) => [(minor / 100).toFixed(2), (minor / 100).toLocaleString('en-US'), String(minor)])
      .chain((forms) => fc.constantFrom(...forms));
    const otherPrefix = fc
      .tuple(fc.stringMatching(/^[A-Z]{1,3}$/), loanNumber)
      .filter(([letters]) => letters !== 'HL')
      .map(([letters, { number }]) => number.replace(/^HL/, letters));
    fc.assert(
      fc.property(fc.oneof(mobile, amount, otherPrefix), (text) => {
        expect(normaliseLoanReference(text), text).toBeNull();
        expect(loanNumbersIn(text), text).toEqual([]);
      }),
    );
  });
});
