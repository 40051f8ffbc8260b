/**
 * Philippine mobile numbers (issue #32): the one rule for every phone field — sign-up, sign-in, forgotten
 * password, step 1 and the reference contact of an application, staff users, staff searches.
 *
 * People write the same number many ways: "+63 917 123 4567", "0917-123-4567", "(0917) 123 4567",
 * "639171234567", "+63 (0) 917 123 4567", "9171234567", with spaces, dashes, dots or brackets, and with
 * full-width digits from a Chinese or Japanese keyboard. All of them name one number, which the app keeps in
 * one form: the national form with its leading 0, eleven digits, "09171234567" (what the app has always
 * stored and shown, and what an SMS gateway in the Philippines takes).
 *
 * A mobile number is 9XX XXX XXXX after the country code (and the 0813 and 0817 ranges, assigned to mobile
 * networks); landlines (area codes: "02 8123 4567", "032 234 5678") and other countries' numbers are not
 * mobile numbers and are refused by the schemas with the SPEC §5 message (PHONE_INVALID).
 */

/** The stored form: 0, then the ten digits of the national mobile number. */
export const canonicalMobilePattern = /^0(?:9\d{9}|81[37]\d{7})$/;

/** The national number after the country code (or the trunk 0): 10 digits, a mobile range. */
const nationalMobile = /^(?:9\d{9}|81[37]\d{7})$/;

/**
 * What may stand between the digits: any space, a dash of any kind, a dot, brackets. NFKC has already turned
 * full-width forms into these (＋ → +, （ → (, － → -, the ideographic space → space).
 */
const separators = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\-\u2010-\u2015\u2212.()[\]]/g;

/** Longer input is no phone number; stops a pasted essay early. */
const MAX_INPUT = 64;

/** NFKC (full-width digits and signs to ASCII) and no separators; may still hold anything else. */
function compact(input: string): string {
  return input
    .slice(0, MAX_INPUT * 4)
    .normalize('NFKC')
    .replace(separators, '');
}

/**
 * The national number (10 digits, no trunk 0) of `digits`, given as +63…/0063…/63…/0…/9… without
 * separators, or null. `international`: the country code was marked by + or 00, so it must be 63.
 */
function national(compacted: string): string | null {
  let rest: string;
  if (compacted.startsWith('+')) rest = compacted.slice(1);
  else if (compacted.startsWith('00')) rest = compacted.slice(2);
  else rest = compacted;
  if (!/^\d+$/.test(rest)) return null;
  const international = rest !== compacted;
  if (international) {
    if (!rest.startsWith('63')) return null;
    rest = rest.slice(2);
    // "+63 (0) 917 …": the trunk 0 written after the country code.
    if (rest.length === 11 && rest.startsWith('0')) rest = rest.slice(1);
  } else if (rest.length === 12 && rest.startsWith('63')) {
    rest = rest.slice(2);
  } else if (rest.length === 13 && rest.startsWith('630')) {
    rest = rest.slice(3);
  } else if (rest.length === 11 && rest.startsWith('0')) {
    rest = rest.slice(1);
  }
  return nationalMobile.test(rest) ? rest : null;
}

/**
 * The stored form ("09171234567") of a Philippine mobile number written any common way, or null when
 * `input` is not one (empty, letters, too short or long, a landline, another country's number).
 */
export function toPhMobile(input: string): string | null {
  if (typeof input !== 'string' || input.length > MAX_INPUT) return null;
  const digits = national(compact(input));
  return digits ? `0${digits}` : null;
}

/** True when `input` is a Philippine mobile number in any common writing. */
export function isPhMobile(input: string): boolean {
  return toPhMobile(input) !== null;
}

/**
 * The stored form when `input` is a mobile number, else `input` unchanged, for a schema that checks the
 * result against `canonicalMobilePattern` next (so the message names what was typed wrong).
 */
export function canonicalPhoneOrSame(input: string): string {
  return toPhMobile(input) ?? input;
}

/**
 * A staff search box's phone: part of a number, written any way. A whole mobile number becomes the stored
 * form; a beginning with the country code ("+63 917", "0063917") becomes the national one ("0917"), so a
 * "contains" search on the stored numbers finds it; separators go. Anything else (letters) is left for the
 * schema to refuse.
 */
export function phoneSearchTerm(input: string): string {
  const whole = toPhMobile(input);
  if (whole) return whole;
  const compacted = compact(input);
  const international = /^(?:\+|00)63(\d*)$/.exec(compacted);
  if (international) {
    const rest = international[1] ?? '';
    return rest === '' || rest.startsWith('0') ? rest : `0${rest}`;
  }
  return compacted;
}
