import fields from '../../domain/field-names/zh.json';
import { mergeLocale } from './merge-locale';
import shared from './zh.json';

/**
 * The zh strings a borrower's screens use, in one chunk loaded only when zh is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./zh.staff.ts, loaded only under /admin;
 * the wallet's and the account's in ./zh.wallet.ts, loaded with the pages that show them.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/zh.json',
      '!./{account,audit,backOffice,collections,complaints,disbursements,paying,products,security,servicing,staff-errors,staffLoans,users,wallet}/zh.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
