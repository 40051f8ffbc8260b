import auditLabels from '../../domain/audit-labels/zh.json';
import { mergeLocale } from './merge-locale';

/** The back office's zh strings (staff features and the audit catalogue): loaded only under /admin. */
export default mergeLocale(
  { auditLabels },
  import.meta.glob<Record<string, unknown>>(
    './{audit,backOffice,collections,disbursements,products,security,servicing,staffLoans,users}/zh.json',
    { eager: true, import: 'default' },
  ),
);
