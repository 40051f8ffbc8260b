import auditLabels from '../../domain/audit-labels/km.json';
import { mergeLocale } from './merge-locale';
import errors from './staff-errors/km.json';

/** The back office's km strings (staff features and the audit catalogue): loaded only under /admin. */
export default mergeLocale(
  // The messages only the back office shows (a loan product's form), merged into `errors` as it loads.
  { auditLabels, errors },
  import.meta.glob<Record<string, unknown>>(
    './{audit,backOffice,collections,disbursements,products,security,servicing,staffLoans,users}/km.json',
    { eager: true, import: 'default' },
  ),
);
