import { toPhMobile } from './phone';

/**
 * The ways the phone number a payment provider reports for the payer (`+63 917 123 4567`, `0917-123-4567`,
 * `639171234567`) may be written in an account, to look the borrower up by it (issue #32). A Philippine
 * mobile number, read by the one phone rule (`toPhMobile`), gives its stored form 09… first, then the 63…
 * and 9… forms an account may still have when migration 028 could not move it; any other number of 10 to
 * 15 digits only itself (accounts made before the rule); anything else nothing.
 */
export function payerPhoneForms(raw: string | null | undefined): string[] {
  if (typeof raw !== 'string' || raw.length > 40) return [];
  const mobile = toPhMobile(raw);
  if (mobile) {
    const national = mobile.slice(1);
    return [mobile, `63${national}`, national];
  }
  const compact = raw.normalize('NFKC').replace(/[\s().\-\u2010-\u2015]/g, '');
  if (!/^\+?\d+$/.test(compact)) return [];
  const digits = compact.replace(/^\+/, '');
  return /^\d{10,15}$/.test(digits) ? [digits] : [];
}
