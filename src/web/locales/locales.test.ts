import { describe, expect, it } from 'vitest';
import { auditFieldKinds, auditLabels } from '../../domain/audit-fields';
import { errorMessages } from '../../domain/errors';
import { loadAllStrings } from '../lib/i18n';
import { type ShownStatus, statusLook } from '../lib/status';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

// The merged resources: the shared files plus every feature's locales/<feature>/<lang>.json, borrower and staff.
const locales = {
  en: flatten((await loadAllStrings('en')) as Tree),
  zh: flatten((await loadAllStrings('zh')) as Tree),
  km: flatten((await loadAllStrings('km')) as Tree),
  fil: flatten((await loadAllStrings('fil')) as Tree),
};
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/**
 * Texts Filipino writes exactly as English: the English loanwords Philippine finance apps use (Taglish) and
 * abbreviations. Listed by text, so any other English left in fil.json still fails.
 */
const sameInFilipino = new Set([
  'Home',
  'Wallet',
  'Account',
  'Password',
  'Username',
  'User',
  'Email',
  'Status',
  'Reference',
  'Reference: {{reference}}',
  'Provider',
  'Payment provider',
  'Verification code',
  'Account number',
  'Account Number',
  'Loan ID',
  'Credit score',
  'Credit Score',
  'Credit rating',
  'Rating: {{rating}}',
  'Disclosure statement',
  'Audit Log',
  'Target',
  'Penguin',
  'APR',
  'PAR30',
  'IP',
  '{{count}} · {{percent}}',
]);

describe('locale files', () => {
  it.each(['zh', 'km', 'fil'] as const)('%s has exactly the keys of en', (lng) => {
    expect(Object.keys(locales[lng]).sort()).toEqual(Object.keys(locales.en).sort());
  });

  it.each(['en', 'zh', 'km', 'fil'] as const)('%s has no empty strings', (lng) => {
    expect(Object.entries(locales[lng]).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it.each(['zh', 'km', 'fil'] as const)('%s uses the same {{placeholders}} as en', (lng) => {
    for (const [key, text] of Object.entries(locales.en)) {
      expect({ key, names: placeholders(locales[lng][key] ?? '') }).toEqual({
        key,
        names: placeholders(text),
      });
    }
  });

  it.each(['zh', 'km', 'fil'] as const)('%s is translated, not an English copy', (lng) => {
    // Product and language names are the same everywhere.
    const sameEverywhere = new Set([
      'common.appName',
      // A brand.
      'channels.gcash',
      'languages.en',
      'languages.zh',
      'languages.km',
      'languages.fil',
    ]);
    const copies = Object.keys(locales.en).filter(
      (key) =>
        !sameEverywhere.has(key) &&
        !(lng === 'fil' && sameInFilipino.has(locales.en[key] ?? '')) &&
        locales[lng][key] === locales.en[key],
    );
    expect(copies).toEqual([]);
  });

  it.each(['en', 'zh', 'km', 'fil'] as const)('%s has errors.<CODE> for every error code', (lng) => {
    const missing = Object.keys(errorMessages).filter((code) => !(`errors.${code}` in locales[lng]));
    expect(missing).toEqual([]);
  });

  it('English error texts are exactly the catalogue texts, with {n} as {{n}}', () => {
    for (const [code, text] of Object.entries(errorMessages)) {
      expect({ code, text: locales.en[`errors.${code}`] }).toEqual({
        code,
        text: text.replace(/\{(\w+)\}/g, '{{$1}}'),
      });
    }
  });
});

describe('the audit catalogue (src/domain/audit-labels, shared with the CSV export)', () => {
  it.each(['en', 'zh', 'km', 'fil'] as const)('%s names statuses and roles as the screens do', (lng) => {
    for (const [status, text] of Object.entries(auditLabels[lng].statuses)) {
      expect({ status, text }).toEqual({
        status,
        text: locales[lng][statusLook(status as ShownStatus).label],
      });
    }
    for (const [role, text] of Object.entries(auditLabels[lng].roles)) {
      expect({ role, text }).toEqual({ role, text: locales[lng][`roles.${role}`] });
    }
  });

  it('labels every field the audit log records', () => {
    expect(Object.keys(auditLabels.en.fields).sort()).toEqual(Object.keys(auditFieldKinds).sort());
  });
});

describe('what a borrower downloads', () => {
  it('the borrower chunk holds no back-office strings, and the staff chunk only those', async () => {
    const borrower = (await import('./en.bundle')).default;
    const staff = (await import('./en.staff')).default;
    const staffOnly = [
      'audit',
      'auditLabels',
      'backOffice',
      'collections',
      'disbursements',
      'security',
      'servicing',
      'products',
      'staffLoans',
      'users',
    ];
    // And the error messages only the back office shows, which join the shared `errors` when it loads.
    expect(Object.keys(staff).sort()).toEqual([...staffOnly, 'errors'].sort());
    for (const key of staffOnly) expect(borrower).not.toHaveProperty(key);
    const shared = borrower.errors as Record<string, string>;
    for (const code of Object.keys(staff.errors as object)) expect(shared).not.toHaveProperty(code);
    // The wallet's, payments', account's and complaints' strings are a chunk of their own (issue #35).
    const wallet = (await import('./en.wallet')).default;
    const walletOnly = ['account', 'complaints', 'paying', 'wallet'];
    expect(Object.keys(wallet).sort()).toEqual(walletOnly);
    for (const key of walletOnly) expect(borrower).not.toHaveProperty(key);
    // What borrower screens show of the back office's vocabulary (statuses, "N/A") stays with them.
    expect(borrower).toHaveProperty(['status', 'approved']);
    expect(borrower).toHaveProperty(['status', 'paid']);
    expect(borrower).toHaveProperty(['common', 'na']);
    expect(borrower).toHaveProperty(['common', 'cancel']);
  });
});
