import * as z from 'zod/mini';
import {
  type NoticeLanguage,
  type NoticeSectionId,
  noticeLanguages,
  noticeSectionIds,
} from '../privacy-notice-parts';
import { miniText as text } from './text-mini';

// zod/mini: the notice and consent are on the sign-up page, part of every borrower's first load
// (docs/decisions/023). Staff's closure list is in ./account-closures.

// In a zod-free module: the sign-up page draws the notice with them before zod is loaded (issue #35).
export { type NoticeLanguage, type NoticeSectionId, noticeLanguages, noticeSectionIds };

const nonBlank = () => z.string().check(z.trim(), z.minLength(1));
const section = z.object({ heading: nonBlank(), body: nonBlank() });
export const noticeTextSchema = z.object({
  title: nonBlank(),
  sections: z.object(
    Object.fromEntries(noticeSectionIds.map((id) => [id, section])) as Record<
      NoticeSectionId,
      typeof section
    >,
  ),
});
export type NoticeText = z.infer<typeof noticeTextSchema>;

/** Every language's text of the notice, as the lender ships it (PRIVACY_NOTICE_FILE) or the defaults. */
export const noticeTextsSchema = z.object(
  Object.fromEntries(noticeLanguages.map((lang) => [lang, noticeTextSchema])) as Record<
    NoticeLanguage,
    typeof noticeTextSchema
  >,
);
export type NoticeTexts = z.infer<typeof noticeTextsSchema>;

/** A notice version as configured (PRIVACY_NOTICE_VERSION), e.g. "2026-11-23" or "v3". */
export const noticeVersionPattern = /^[A-Za-z0-9._-]{1,64}$/;

/** GET /api/privacy/notice: the current notice, with the placeholders ({dpoContact}, {retentionYears}) filled. */
export const privacyNoticeResponse = z.object({
  version: z.string(),
  dpoContact: z.string(),
  retentionYears: z.number(),
  texts: noticeTextsSchema,
});
export type PrivacyNoticeResponse = z.infer<typeof privacyNoticeResponse>;

/** The version of the notice the user read and agreed to (sign-up and re-consent). */
export const consentVersion = text({ error: 'PRIVACY_CONSENT_REQUIRED' }).check(
  z.trim(),
  z.minLength(1, { error: 'PRIVACY_CONSENT_REQUIRED' }),
  z.maxLength(64, { error: 'PRIVACY_NOTICE_OUTDATED' }),
);

export const consentSchema = z.object(
  { privacyNoticeVersion: consentVersion },
  { error: 'PRIVACY_CONSENT_REQUIRED' },
);
export type ConsentInput = z.infer<typeof consentSchema>;

export const consentItem = z.object({
  version: z.string(),
  context: z.enum(['signup', 'reconsent']),
  consentedAt: z.string(),
  current: z.boolean(),
});
export const consentList = z.object({ items: z.array(consentItem) });
export type ConsentList = z.infer<typeof consentList>;

export const myDocumentItem = z.object({
  id: z.string(),
  kind: z.enum(['id_front', 'id_back', 'selfie', 'signature']),
  loanNumber: z.string(),
  createdAt: z.string(),
});
export const myDocumentList = z.object({ items: z.array(myDocumentItem) });
export type MyDocumentList = z.infer<typeof myDocumentList>;

/** Closing one's own account is confirmed with the password (a stolen session cannot close it). */
export const closeAccountSchema = z.object({
  password: text({ error: 'CURRENT_PASSWORD_WRONG' }).check(
    z.minLength(1, { error: 'CURRENT_PASSWORD_WRONG' }),
    z.maxLength(128, { error: 'CURRENT_PASSWORD_WRONG' }),
  ),
});
export type CloseAccountInput = z.infer<typeof closeAccountSchema>;
export const closeAccountResponse = z.object({ ok: z.literal(true), anonymiseOn: z.string() });
export type CloseAccountResponse = z.infer<typeof closeAccountResponse>;
