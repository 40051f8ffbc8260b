import fields from '../../domain/field-names/en.json';
import shared from './en.json';
import { mergeLocale } from './merge-locale';

/**
 * The en strings a borrower's screens use, in one chunk loaded only when en is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./en.staff.ts, loaded only under /admin;
 * the wallet's and the account's in ./en.wallet.ts, loaded with the pages that show them.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/en.json',
      '!./{account,audit,backOffice,collections,complaints,disbursements,paying,products,security,servicing,staff-errors,staffLoans,users,wallet}/en.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
