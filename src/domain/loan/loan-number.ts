/*
 * Loan numbers: the one definition of their format, and how what people type or providers send is read as
 * one (issue #32, docs/decisions/038).
 *
 * A loan number is `HL-26-000002`: the prefix, the two-digit year the application was submitted in (the
 * lender's time zone), and the loan number sequence, zero-padded to six digits (a seventh digit and more
 * once the sequence passes 999,999). The sequence is one for the whole book, never reset by year.
 */

export const LOAN_NUMBER_PREFIX = 'HL';
/** Digits of the year part (`26` for 2026). */
export const LOAN_NUMBER_YEAR_DIGITS = 2;
/** The sequence is padded to at least this many digits. */
export const LOAN_NUMBER_SEQUENCE_DIGITS = 6;
/** Significant digits a sequence may have (a billion loans): a longer digit string is never a loan number. */
const MAX_SEQUENCE_DIGITS = 9;
/** Longer input is never read as one loan number (a memo is searched with `loanNumbersIn`). */
const MAX_REFERENCE_LENGTH = 40;
/** How much of a free-text memo is searched. */
const MAX_MEMO_LENGTH = 1000;

/** A canonical loan number, exactly as stored. */
export const loanNumberPattern = new RegExp(
  `^${LOAN_NUMBER_PREFIX}-\\d{${LOAN_NUMBER_YEAR_DIGITS}}-(?:\\d{${LOAN_NUMBER_SEQUENCE_DIGITS}}|[1-9]\\d{${LOAN_NUMBER_SEQUENCE_DIGITS},})$`,
);

export const isLoanNumber = (value: string): boolean => loanNumberPattern.test(value);

/** The loan number of a year (`"26"`) and a sequence number (≥ 1). */
export function formatLoanNumber(year: string, sequence: number): string {
  if (!new RegExp(`^\\d{${LOAN_NUMBER_YEAR_DIGITS}}$`).test(year)) throw new RangeError(`bad year: ${year}`);
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`bad sequence: ${sequence}`);
  return `${LOAN_NUMBER_PREFIX}-${year}-${String(sequence).padStart(LOAN_NUMBER_SEQUENCE_DIGITS, '0')}`;
}

/**
 * What may stand between the parts: spaces (any), ASCII and Unicode hyphens and dashes, the minus sign,
 * underscores and dots. Nothing else (a slash, a comma, a colon) is read as a separator.
 */
const SEPARATOR = '[\\s_.\\-\\u2010-\\u2015\\u2212\\uFE58\\uFE63]';
const separators = new RegExp(`${SEPARATOR}+`, 'g');

/** Full-width letters and digits (a Chinese keyboard) as ASCII; upper case; no surrounding spaces. */
const fold = (value: string) => value.normalize('NFKC').toUpperCase().trim();

/** The canonical number of a year and a sequence as typed (leading zeros or not), or null. */
function canonical(year: string, sequence: string): string | null {
  const significant = sequence.replace(/^0+/, '');
  if (significant === '' || significant.length > MAX_SEQUENCE_DIGITS) return null;
  return formatLoanNumber(year, Number(significant));
}

/**
 * Reads a loan reference as a person types it or a provider passes it on, and returns the loan number it
 * clearly means, or null. Forgiven: case, surrounding spaces, full-width characters, separators (spaces,
 * dashes, dots, underscores) between the parts or none at all, leading zeros of the sequence dropped or
 * added, and a missing prefix. The rules that keep it from guessing (docs/decisions/038):
 * - the only prefix is `HL`; any other letters anywhere (`XL-26-000002`, `HL-26-00000A`) mean null;
 * - the year is exactly two digits;
 * - with the year and sequence run together (`HL26000002`) the prefix is required and the sequence must be
 *   written at its full six digits, since nothing else says where the year ends (`HL262` is null);
 * - without the prefix the year and the sequence must be separated and the sequence written as exactly six
 *   digits (`26-000002`): a bare, short or long number (`26000002`, `26-2`, `26.50`, `02-81234567`) may be
 *   an amount, an account or a landline;
 * - exactly two parts: a phone number (`0917-123-4567`), a date or three groups is null;
 * - the sequence is at least 1 and at most nine significant digits.
 */
export function normaliseLoanReference(input: string): string | null {
  if (typeof input !== 'string' || input.length > MAX_REFERENCE_LENGTH * 2) return null;
  const folded = fold(input);
  if (folded.length === 0 || folded.length > MAX_REFERENCE_LENGTH) return null;
  const parts = folded.split(separators).filter((part) => part !== '');
  let prefixed = false;
  if (parts[0]?.startsWith(LOAN_NUMBER_PREFIX)) {
    prefixed = true;
    parts[0] = parts[0].slice(LOAN_NUMBER_PREFIX.length);
    if (parts[0] === '') parts.shift();
  }
  if (!parts.every((part) => /^\d+$/.test(part))) return null;
  const yearDigits = LOAN_NUMBER_YEAR_DIGITS;
  if (parts.length === 1) {
    const [digits] = parts as [string];
    if (!prefixed || digits.length < yearDigits + LOAN_NUMBER_SEQUENCE_DIGITS) return null;
    return canonical(digits.slice(0, yearDigits), digits.slice(yearDigits));
  }
  if (parts.length === 2) {
    const [year, sequence] = parts as [string, string];
    if (year.length !== yearDigits) return null;
    if (!prefixed && sequence.length !== LOAN_NUMBER_SEQUENCE_DIGITS) return null;
    return canonical(year, sequence);
  }
  return null;
}

/**
 * A staff search box's loan number, for a "contains" search: upper case, full-width folded, without the
 * separators (compared with the stored numbers without their dashes), so `hl26 0000`, `26000002` and
 * `000002` find HL-26-000002. Empty when nothing but separators was typed.
 */
export function loanNumberSearchText(input: string): string {
  if (typeof input !== 'string') return '';
  return fold(input.slice(0, MAX_MEMO_LENGTH)).replace(separators, '');
}

/**
 * A loan number inside free text ("Payment for HL-26-000002 thanks"): the `HL` prefix is required here,
 * not glued to a letter or digit before it; then the year and the sequence as `normaliseLoanReference`
 * reads them (run together only at full width). Not followed by a letter or digit, and a short sequence
 * must not be followed by another group of digits (`HL 26 2 500` could be 2 or 2500).
 */
const inText = new RegExp(
  `(?<![A-Z0-9])${LOAN_NUMBER_PREFIX}${SEPARATOR}*(\\d{${LOAN_NUMBER_YEAR_DIGITS}})(${SEPARATOR}*)(\\d+)(?![A-Z0-9])`,
  'g',
);
const digitGroupNext = new RegExp(`^${SEPARATOR}+\\d`);

/** Every distinct loan number written in a longer text, in the order found (empty when none). */
export function loanNumbersIn(text: string | null | undefined): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const folded = fold(text.slice(0, MAX_MEMO_LENGTH));
  const found: string[] = [];
  for (const match of folded.matchAll(inText)) {
    const [whole, year, gap, sequence] = match as unknown as [string, string, string, string];
    const short = sequence.length < LOAN_NUMBER_SEQUENCE_DIGITS;
    if (short && gap === '') continue;
    if (short && digitGroupNext.test(folded.slice(match.index + whole.length))) continue;
    const number = canonical(year, sequence);
    if (number && !found.includes(number)) found.push(number);
  }
  return found;
}

/** What a payment's references name: one loan, none, or several (then nothing is applied by itself). */
export type LoanReferenceMatch =
  | { kind: 'one'; loanNumber: string }
  | { kind: 'none' }
  | { kind: 'ambiguous'; loanNumbers: string[] };

/**
 * The loan a payment names: the payer's reference read whole (`normaliseLoanReference`), and every loan
 * number written inside it or inside the provider's memo (`loanNumbersIn`). One distinct number is a
 * match; two or more are ambiguous.
 */
export function matchLoanReference(
  reference: string | null | undefined,
  memo?: string | null,
): LoanReferenceMatch {
  const whole = typeof reference === 'string' ? normaliseLoanReference(reference) : null;
  const numbers = [
    ...new Set([...(whole ? [whole] : []), ...loanNumbersIn(reference), ...loanNumbersIn(memo)]),
  ];
  if (numbers.length === 1) return { kind: 'one', loanNumber: numbers[0]! };
  if (numbers.length === 0) return { kind: 'none' };
  return { kind: 'ambiguous', loanNumbers: numbers };
}
