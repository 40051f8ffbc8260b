import { readFileSync } from 'node:fs';
import {
  type NoticeTexts,
  noticeLanguages,
  noticeSectionIds,
  noticeTextsSchema,
} from '../../domain/schemas/privacy';
import en from './notice-texts/en.json';
import fil from './notice-texts/fil.json';
import km from './notice-texts/km.json';
import zh from './notice-texts/zh.json';

/** The privacy notice shipped with Hiram, in every language; a lender replaces it with PRIVACY_NOTICE_FILE. */
export const defaultNoticeTexts: NoticeTexts = noticeTextsSchema.parse({ en, zh, km, fil });

/**
 * Reads a lender's notice (JSON: `{ "en": { "title", "sections": { "controller": { "heading", "body" }, … } },
 * "zh": …, "km": …, "fil": … }`) and says exactly what is missing; the caller stops the start on an error.
 */
export function readNoticeFile(path: string): NoticeTexts {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`PRIVACY_NOTICE_FILE ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = noticeTextsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => i.path.join('.') || 'file').join(', ');
    throw new Error(
      `PRIVACY_NOTICE_FILE ${path} must give a title and the sections ${noticeSectionIds.join(', ')} ` +
        `(each a heading and a body) in ${noticeLanguages.join(', ')}; missing or empty: ${problems}`,
    );
  }
  return parsed.data;
}

/** The notice as shown: {dpoContact} and {retentionYears} filled in every text. */
export function fillNotice(texts: NoticeTexts, values: { dpoContact: string; retentionYears: number }) {
  const fill = (text: string) =>
    text
      .replaceAll('{dpoContact}', values.dpoContact)
      .replaceAll('{retentionYears}', String(values.retentionYears));
  return Object.fromEntries(
    noticeLanguages.map((lang) => {
      const text = texts[lang];
      return [
        lang,
        {
          title: fill(text.title),
          sections: Object.fromEntries(
            noticeSectionIds.map((id) => [
              id,
              { heading: fill(text.sections[id].heading), body: fill(text.sections[id].body) },
            ]),
          ),
        },
      ];
    }),
  ) as NoticeTexts;
}
