import { readdirSync } from 'node:fs';
import en from '../../src/web/locales/en.json';

/**
 * What looks like a name or value from the code rather than words (nothing shown to staff or borrowers may
 * be): an action code ("user.totp_enabled"), a snake_case value ("on_hold"), a camelCase field
 * ("recoveryCodes:"), an error code ("WITHDRAWAL_CODE_INVALID") or a date as the API sends it ("2026-09-15").
 */
export function rawNamesShown(text: string): string[] {
  const patterns = [
    /\b(?:application|loan|user|disbursement|repayment|payment|terms|complaint)\.[a-z_]+\b/g,
    /\b[a-z]+(?:_[a-z]+)+\b/g,
    /\b[a-z]+[A-Z][A-Za-z]*:/g,
    /\b[A-Z]+(?:_[A-Z]+)+\b/g,
    // The privacy notice's version is the name the lender gave it (PRIVACY_NOTICE_VERSION, "2026-11-23" or "v3").
    /(?<!Version )\b\d{4}-\d{2}-\d{2}\b/g,
  ];
  return [...new Set(patterns.flatMap((pattern) => text.match(pattern) ?? []))];
}

/** The top-level names of the web's strings ("wallet", "backOffice", "fields"…): a key shown is a string missing. */
const stringGroups = [
  ...Object.keys(en),
  ...readdirSync(new URL('../../src/web/locales/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name),
  'fields',
  'auditLabels',
];
const keyPattern = new RegExp(`\\b(?:${stringGroups.join('|')})\\.[A-Za-z]+(?:\\.[A-Za-z_]+)*\\b`, 'g');

/** A string's key shown where its words should be ("wallet.history.title"): that language lacks it. */
export function stringKeysShown(text: string): string[] {
  return [...new Set(text.match(keyPattern) ?? [])];
}
