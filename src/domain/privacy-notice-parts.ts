import { languages } from './languages';

/** The languages a privacy notice is written in: every language the app speaks. */
export const noticeLanguages = languages;
export type NoticeLanguage = (typeof noticeLanguages)[number];

/**
 * The parts the notice must have (RA 10173 §16, NPC Circular 2023-04): who processes the data, what is
 * collected, why, with whom it is shared, how long it is kept, the data subject's rights, and how to reach
 * the data protection officer. Each is a heading and its text.
 */
export const noticeSectionIds = [
  'controller',
  'data',
  'purposes',
  'sharing',
  'retention',
  'rights',
  'contact',
] as const;
export type NoticeSectionId = (typeof noticeSectionIds)[number];
