import { auditLabels } from '../../../domain/audit-fields';
import { todayIn, writeIsoDate } from '../../../domain/date-text';
import { fieldNames } from '../../../domain/field-names';
import { type Language, languages } from '../../../domain/languages';
import { disbursementStatuses } from '../../../domain/loan/disbursement-status';
import { loanStatuses } from '../../../domain/loan/status';
import { roles, userStatuses } from '../../../domain/roles';
import { timeZonePlaceName } from '../../../domain/time-zone-name';
import { en } from './export-readme/en';
import {
  type ExportFile,
  exportFiles,
  formFieldsOfApplications,
  type ReadmeTexts,
} from './export-readme/fields';
import { fil } from './export-readme/fil';
import { km } from './export-readme/km';
import { zh } from './export-readme/zh';

export const readmeTexts: Record<Language, ReadmeTexts> = { en, fil, zh, km };

/** Each language by its own name, as the language switch writes it. */
const languageNames: Record<Language, string> = {
  en: 'English',
  fil: 'Filipino',
  zh: '中文',
  km: 'ខ្មែរ',
};

const documentKinds = {
  id_front: 'idFront',
  id_back: 'idBack',
  selfie: 'selfie',
  signature: 'signature',
} as const;

/** The README's file name in the archive. */
export const readmeFileName = 'README.txt';

/**
 * The export's README in the borrower's language (issue #36): what each file is, what each field in it
 * means, and for a field that holds a code (a status, a kind) every code with its word, since the JSON keeps
 * the codes themselves (they are what the records hold).
 */
export function exportReadme(
  language: Language,
  context: { now: Date; timeZone: string; channels: readonly { code: string; name: string }[] },
): string {
  const t = readmeTexts[language];
  const labels = auditLabels[language];
  const words = (codes: readonly string[], word: (code: string) => string) =>
    codes.map((code) => `${code} = ${word(code)}`).join('; ');
  const values: Partial<Record<`${ExportFile} ${string}`, string>> = {
    'profile.json user.role': words(roles, (r) => labels.roles[r as keyof typeof labels.roles]),
    'profile.json user.status': words(
      userStatuses,
      (s) => labels.statuses[s as keyof typeof labels.statuses],
    ),
    'profile.json user.language': words(languages, (l) => languageNames[l as Language]),
    'applications.json status': words(
      loanStatuses,
      (s) => labels.statuses[s as keyof typeof labels.statuses],
    ),
    'applications.json contact_relation': words(
      Object.keys(t.words.relations),
      (r) => t.words.relations[r as keyof typeof t.words.relations],
    ),
    'disbursements.json status': words(
      disbursementStatuses,
      (s) => labels.statuses[s as keyof typeof labels.statuses],
    ),
    'repayments.json channel': words(
      context.channels.map((c) => c.code),
      (code) => context.channels.find((c) => c.code === code)?.name ?? code,
    ),
    'messages.json events.kind': wordsOf(t.words.eventKinds),
    'messages.json reminders.kind': wordsOf(t.words.messageKinds),
    'messages.json reminders.status': wordsOf(t.words.reminderStatuses),
    'consents.json context': wordsOf(t.words.consentContexts),
    'documents.json kind': words(
      Object.keys(documentKinds),
      (k) => fieldNames[language][documentKinds[k as keyof typeof documentKinds]],
    ),
  };

  const exportedAt = writeIsoDate(language, todayIn(context.timeZone, context.now)) ?? '';
  const lines = [t.title, '='.repeat(t.title.length), '', t.intro.replace('{exportedAt}', exportedAt), ''];
  const zone = timeZonePlaceName(language, context.timeZone);
  const offset = utcOffset(context.timeZone, context.now);
  lines.push(
    ...t.conventions.map((line) => `- ${line.replace('{zone}', zone).replace('{offset}', offset)}`),
    '',
  );
  for (const file of Object.keys(exportFiles) as (keyof typeof exportFiles)[]) {
    const about = t.files[file];
    lines.push(file, '-'.repeat(file.length), about.about, '');
    const described: [string, string][] = exportFiles[file].map((field) => [
      field,
      (about.fields as Record<string, string>)[field]!,
    ]);
    if (file === 'applications.json') {
      for (const [column, key] of Object.entries(formFieldsOfApplications))
        described.push([column, `${fieldNames[language][key]} (${t.formField})`]);
    }
    for (const [field, text] of described) {
      lines.push(`  ${field}: ${text}`);
      const shown = values[`${file} ${field}`];
      if (shown) lines.push(`      ${t.valuesAre}: ${shown}`);
    }
    lines.push('');
  }
  lines.push('documents/', '-'.repeat('documents/'.length), t.files['documents/'].about, '');
  return lines.join('\n');
}

function wordsOf(table: Record<string, string>): string {
  return Object.entries(table)
    .map(([code, word]) => `${code} = ${word}`)
    .join('; ');
}

/** "UTC+8": how far the lender's clocks are from UTC at this moment. */
function utcOffset(timeZone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at);
  const offset = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  // "GMT+08:00" → "UTC+8", "GMT+05:30" → "UTC+5:30", "GMT" → "UTC".
  return offset
    .replace('GMT', 'UTC')
    .replace(/([+-])0?(\d+):00$/, '$1$2')
    .replace(/([+-])0(\d)/, '$1$2');
}
