import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalMobilePattern, isPhMobile, phoneSearchTerm, toPhMobile } from './phone';

describe('toPhMobile', () => {
  it.each([
    '+63 917 123 4567',
    '0917-123-4567',
    '09171234567',
    '639171234567',
    '(0917) 123 4567',
    '+63-917-123-4567',
    '+63 (0) 917 123 4567',
    '+6309171234567',
    '0063 917 123 4567',
    '9171234567',
    '917 123 4567',
    '0917.123.4567',
    ' 0917 123 4567 ',
    '０９１７ １２３ ４５６７',
    '＋６３ ９１７－１２３－４５６７',
    '（０９１７）１２３４５６７',
    '0917\u00a0123\u00a04567',
    '0917–123–4567',
    '+63\u3000917\u3000123\u30004567',
    '[0917] 123-4567',
  ])('reads %j as 09171234567', (input) => {
    expect(toPhMobile(input)).toBe('09171234567');
  });

  it('keeps the 0813 and 0817 mobile ranges', () => {
    expect(toPhMobile('+63 813 123 4567')).toBe('08131234567');
    expect(toPhMobile('0817-555-0101')).toBe('08175550101');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['letters', '0917abc4567'],
    ['too short', '091712345'],
    ['too long', '0917123456789012'],
    ['one digit more', '091712345678'],
    ['Metro Manila landline', '02 8123 4567'],
    ['Metro Manila landline, international', '+63 2 8123 4567'],
    ['Cebu landline', '(032) 234 5678'],
    ['Davao landline, international', '+63 82 234 5678'],
    ['a US number', '+1 415 555 0100'],
    ['a UK mobile', '+44 7911 123456'],
    ['a mainland China mobile', '+86 138 0013 8000'],
    ['a Cambodian mobile', '+855 12 345 678'],
    ['a plus in the middle', '0917+1234567'],
    ['two numbers', '0917 123 4567 / 0918 123 4567'],
    ['a 08 range that is not mobile', '0881234567'],
    ['an extension', '0917 123 4567 ext 2'],
  ])('refuses %s', (_name, input) => {
    expect(toPhMobile(input)).toBeNull();
    expect(isPhMobile(input)).toBe(false);
  });

  it('refuses input longer than any phone, however it ends', () => {
    expect(toPhMobile(`${' '.repeat(100)}09171234567`)).toBeNull();
  });
});

// ---- Properties

/** A stored number: 09 + 9 digits, or the 0813 / 0817 ranges. */
const canonical = fc.oneof(
  { weight: 9, arbitrary: fc.stringMatching(/^09\d{9}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^081[37]\d{7}$/) },
);

const separator = fc.constantFrom('', '', '', ' ', '-', '.', '\u00a0', '–', '\u3000', '－', '．');
const prefix = fc.constantFrom('0', '+63', '63', '+63 ', '+63-', '+63 (0) ', '+630', '0063 ', '', '＋６３ ');

const fullWidth = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

/** The number written some common way: a prefix, separators between digits, maybe full-width digits. */
const written = fc
  .record({
    number: canonical,
    prefix,
    seps: fc.array(separator, { minLength: 10, maxLength: 10 }),
    wide: fc.boolean(),
    bracketsAroundPrefix: fc.boolean(),
    pad: fc.constantFrom('', ' ', '  '),
  })
  .map(({ number, prefix, seps, wide, bracketsAroundPrefix, pad }) => {
    const digits = number.slice(1).split('');
    let body = digits.map((d, i) => `${d}${seps[i] ?? ''}`).join('');
    if (bracketsAroundPrefix && prefix === '0') body = `(0${body.slice(0, 3)}) ${body.slice(3)}`;
    else body = `${prefix}${body}`;
    const text = `${pad}${body}${pad}`;
    return { number, text: wide ? fullWidth(text) : text };
  });

describe('toPhMobile properties', () => {
  it('reads every common writing of a number as that number', () => {
    fc.assert(
      fc.property(written, ({ number, text }) => {
        expect(toPhMobile(text)).toBe(number);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers the stored form or nothing, and the stored form reads as itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^[+0-9 ()\-.]{0,20}$/),
          written.map((w) => w.text),
        ),
        (text) => {
          const result = toPhMobile(text);
          if (result !== null) {
            expect(result).toMatch(canonicalMobilePattern);
            expect(toPhMobile(result)).toBe(result);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses any letter in the number', () => {
    fc.assert(
      fc.property(written, fc.nat(), fc.constantFrom('a', 'O', 'x', 'l', 'I'), ({ text }, at, letter) => {
        const i = at % (text.length + 1);
        expect(toPhMobile(`${text.slice(0, i)}${letter}${text.slice(i)}`)).toBeNull();
      }),
    );
  });

  it("refuses another country's number, whatever its digits", () => {
    const country = fc.integer({ min: 1, max: 999 }).filter((n) => n !== 63 && !String(n).startsWith('63'));
    fc.assert(
      fc.property(country, fc.stringMatching(/^\d{6,12}$/), (code, rest) => {
        expect(toPhMobile(`+${code} ${rest}`)).toBeNull();
        expect(toPhMobile(`00${code}${rest}`)).toBeNull();
      }),
    );
  });

  it('refuses landlines: an area code and a 7- or 8-digit subscriber number', () => {
    // Metro Manila's 2 and the provincial codes (32–38 Visayas, 42–56 Luzon, 62–68 and 72–78 Visayas and
    // Mindanao, 82–88 Mindanao).
    const area = fc.constantFrom(
      '2',
      ...[3, 4, 5, 6, 7, 8].flatMap((d) => [2, 3, 4, 5, 6, 7, 8].map((u) => `${d}${u}`)),
    );
    fc.assert(
      fc.property(
        area,
        fc.stringMatching(/^[2-8]\d{6,7}$/),
        fc.boolean(),
        (code, subscriber, international) => {
          const text = international ? `+63 ${code} ${subscriber}` : `(0${code}) ${subscriber}`;
          expect(toPhMobile(text)).toBeNull();
        },
      ),
    );
  });
});

describe('phoneSearchTerm', () => {
  it.each([
    ['+63 917 123 4567', '09171234567'],
    ['0917-123', '0917123'],
    ['+63 917', '0917'],
    ['0063917', '0917'],
    ['+63 (0) 917', '0917'],
    ['123 4567', '1234567'],
    ['４５６７', '4567'],
    ['', ''],
    ['0917abc', '0917abc'],
  ])('searches %j as %j', (input, term) => {
    expect(phoneSearchTerm(input)).toBe(term);
  });

  it('finds a stored number from any writing of a beginning of it', () => {
    fc.assert(
      fc.property(written, fc.integer({ min: 3, max: 11 }), ({ number }, length) => {
        // "+63 9…" typed so far: the search term is a part of the stored number.
        const typed = `+63 ${number.slice(1, length)}`;
        expect(number).toContain(phoneSearchTerm(typed));
      }),
    );
  });
});
