import auditLabels from '../../domain/audit-labels/zh.json';
import { mergeLocale } from './merge-locale';
import shared from './zh.json';

/** Every zh string in one chunk, loaded only when zh is the language in use (src/web/lib/i18n.ts). */
export default mergeLocale(
  shared,
  import.meta.glob<Record<string, unknown>>('./*/zh.json', { eager: true, import: 'default' }),
  auditLabels,
);
