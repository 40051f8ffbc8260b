import auditLabels from '../../domain/audit-labels/km.json';
import shared from './km.json';
import { mergeLocale } from './merge-locale';

/** Every km string in one chunk, loaded only when km is the language in use (src/web/lib/i18n.ts). */
export default mergeLocale(
  shared,
  import.meta.glob<Record<string, unknown>>('./*/km.json', { eager: true, import: 'default' }),
  auditLabels,
);
