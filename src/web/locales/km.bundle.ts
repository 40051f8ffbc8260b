import fields from '../../domain/field-names/km.json';
import shared from './km.json';
import { mergeLocale } from './merge-locale';

/**
 * The km strings a borrower's screens use, in one chunk loaded only when km is the language in use
 * (src/web/lib/i18n.ts). The back office's own strings are in ./km.staff.ts, loaded only under /admin.
 */
export default mergeLocale(
  // The field names errors name (src/domain/field-names, shared with the server's messages).
  { ...shared, fields },
  import.meta.glob<Record<string, unknown>>(
    [
      './*/km.json',
      '!./{audit,backOffice,collections,disbursements,products,security,servicing,staff-errors,staffLoans,users}/km.json',
    ],
    {
      eager: true,
      import: 'default',
    },
  ),
);
