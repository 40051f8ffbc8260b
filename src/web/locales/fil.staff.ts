import auditLabels from '../../domain/audit-labels/fil.json';
import { mergeLocale } from './merge-locale';

/** The back office's fil strings (staff features and the audit catalogue): loaded only under /admin. */
export default mergeLocale(
  { auditLabels },
  import.meta.glob<Record<string, unknown>>(
    './{audit,backOffice,collections,disbursements,products,security,servicing,staffLoans,users}/fil.json',
    { eager: true, import: 'default' },
  ),
);
