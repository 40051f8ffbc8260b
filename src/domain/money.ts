/**
 * Money is an integer count of minor units (centavos for PHP) held in a plain `number` that must be a
 * safe integer. Floats never hold a stored amount: every helper here either works on safe integers or
 * on exact decimal strings, and throws rather than silently losing a centavo.
 */

/** Minor units per major unit. PHP (the default currency) and every currency we expect use 2 decimals. */
export const MINOR_PER_MAJOR = 100;

export function isMinor(value: unknown): value is number {
  // Stryker disable next-line ConditionalExpression: Number.isSafeInteger is already false for a non-number; the typeof narrows the type
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function assertMinor(value: unknown, label = 'amount'): asserts value is number {
  if (!isMinor(value)) throw new Error(`${label} must be a safe integer number of minor units, got ${value}`);
}

/** Whole major units (e.g. pesos typed by a borrower) to minor units; rejects fractions and unsafe results. */
export function toMinor(major: number): number {
  if (!Number.isSafeInteger(major)) throw new Error(`Expected a whole number of major units, got ${major}`);
  const minor = major * MINOR_PER_MAJOR;
  assertMinor(minor, 'converted amount');
  return minor;
}

/** '-1234.05' style: plain digits, always 2 decimals, no grouping. Exact (string arithmetic, no division). */
export function fromMinorToMajorString(minor: number): string {
  assertMinor(minor);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export interface FormatMoneyOptions {
  locale: string;
  currency?: string;
  /** Drop ".00" when the amount is whole (e.g. "₱10,000" in messages); other amounts keep 2 decimals. */
  omitZeroCents?: boolean;
}

/** One Intl.NumberFormat per locale, currency and decimals: building one costs far more than using it. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Display text in the locale's number format. `narrowSymbol` gives "₱" for PHP in every locale we ship
 * (zh would otherwise print "PHP"). The value goes to Intl as a decimal string so huge amounts are not
 * rounded through a float.
 */
export function formatMoney(
  minor: number,
  { locale, currency = 'PHP', omitZeroCents = false }: FormatMoneyOptions,
) {
  const whole = omitZeroCents && minor % MINOR_PER_MAJOR === 0;
  const key = `${locale} ${currency} ${whole}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    });
    moneyFormats.set(key, format);
  }
  return format.format(fromMinorToMajorString(minor) as `${number}`);
}

export function addMinor(a: number, b: number): number {
  assertMinor(a);
  assertMinor(b);
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new Error('Money overflow: sum exceeds Number.MAX_SAFE_INTEGER');
  return sum;
}

export function sumMinor(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total = addMinor(total, value);
  return total;
}

/**
 * round(numerator / denominator), halves rounded up, for non-negative integers. BigInt so that products
 * such as balance × rate never pass through a float.
 */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n)
    throw new Error('divRoundHalfUp expects numerator ≥ 0 and denominator > 0');
  return (2n * numerator + denominator) / (2n * denominator);
}
