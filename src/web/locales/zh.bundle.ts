import fields from '../../domain/field-names/zh.json';
import { mergeLocale } from './merge-locale';
import shared from './zh.json';

/**
 * The zh strings a borrower's screens use, in one chunk loaded only when zh is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./zh.staff.ts, loaded only under /admin.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/zh.json',
      '!./{audit,backOffice,collections,disbursements,products,security,servicing,staff-errors,staffLoans,users}/zh.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
