import auditLabels from '../../domain/audit-labels/fil.json';
import shared from './fil.json';
import { mergeLocale } from './merge-locale';

/** Every fil string in one chunk, loaded only when fil is the language in use (src/web/lib/i18n.ts). */
export default mergeLocale(
  shared,
  import.meta.glob<Record<string, unknown>>('./*/fil.json', { eager: true, import: 'default' }),
  auditLabels,
);
