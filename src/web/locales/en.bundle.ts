import auditLabels from '../../domain/audit-labels/en.json';
import shared from './en.json';
import { mergeLocale } from './merge-locale';

/** Every en string in one chunk, loaded only when en is the language in use (src/web/lib/i18n.ts). */
export default mergeLocale(
  shared,
  import.meta.glob<Record<string, unknown>>('./*/en.json', { eager: true, import: 'default' }),
  auditLabels,
);
