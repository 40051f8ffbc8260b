import auditLabels from '../../domain/audit-labels/zh.json';
import { mergeLocale } from './merge-locale';
import errors from './staff-errors/zh.json';

/** The back office's zh strings (staff features and the audit catalogue): loaded only under /admin. */
export default mergeLocale(
  // The messages only the back office shows (a loan product's form), merged into `errors` as it loads.
  { auditLabels, errors },
  import.meta.glob<Record<string, unknown>>(
    './{audit,backOffice,collections,disbursements,products,security,servicing,staffLoans,users}/zh.json',
    { eager: true, import: 'default' },
  ),
);
