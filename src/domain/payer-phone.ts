/**
 * The ways the phone number a payment provider reports for the payer (`+63 917 123 4567`, `0917-123-4567`,
 * `639171234567`) may be written in an account (digits only, issue #32), to look the borrower up by it.
 * A Philippine mobile (9 and nine more digits after 0, 63 or +63) gives its three digit-only forms; any
 * other number of 10 to 15 digits only itself; anything else (letters, too short or long) nothing.
 */
export function payerPhoneForms(raw: string | null | undefined): string[] {
  if (typeof raw !== 'string' || raw.length > 40) return [];
  const compact = raw.normalize('NFKC').replace(/[\s().\-\u2010-\u2015]/g, '');
  if (!/^\+?\d+$/.test(compact)) return [];
  const mobile = /^(?:\+63|63|0)?(9\d{9})$/.exec(compact);
  if (mobile) {
    const national = mobile[1]!;
    return [`0${national}`, `63${national}`, national];
  }
  const digits = compact.replace(/^\+/, '');
  return /^\d{10,15}$/.test(digits) ? [digits] : [];
}
