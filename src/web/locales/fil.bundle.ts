import fields from '../../domain/field-names/fil.json';
import shared from './fil.json';
import { mergeLocale } from './merge-locale';

/**
 * The fil strings a borrower's screens use, in one chunk loaded only when fil is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./fil.staff.ts, loaded only under /admin;
 * the wallet's and the account's in ./fil.wallet.ts, loaded with the pages that show them.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/fil.json',
      '!./{account,audit,backOffice,collections,complaints,disbursements,paying,products,security,servicing,staff-errors,staffLoans,users,wallet}/fil.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
