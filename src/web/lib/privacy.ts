import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type NoticeLanguage, noticeLanguages } from '../../domain/privacy-notice-parts';
import type { NoticeText, PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { privacyNoticeQuery } from './privacy-notice-query';

export function usePrivacyNotice() {
  return useQuery(privacyNoticeQuery);
}

/** The notice's text in the reader's language (English when the lender's notice lacks it). */
export function useNoticeText(notice: PrivacyNoticeResponse | undefined): NoticeText | undefined {
  const { i18n } = useTranslation();
  if (!notice) return undefined;
  const lang = (noticeLanguages as readonly string[]).includes(i18n.language)
    ? (i18n.language as NoticeLanguage)
    : 'en';
  return notice.texts[lang];
}
