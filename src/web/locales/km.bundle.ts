import fields from '../../domain/field-names/km.json';
import shared from './km.json';
import { mergeLocale } from './merge-locale';

/**
 * The km strings a borrower's screens use, in one chunk loaded only when km is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./km.staff.ts, loaded only under /admin;
 * the wallet's and the account's in ./km.wallet.ts, loaded with the pages that show them.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/km.json',
      '!./{account,audit,backOffice,collections,complaints,disbursements,paying,products,security,servicing,staff-errors,staffLoans,users,wallet}/km.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
