import type { PrivacyNoticeResponse } from '../../../domain/schemas/privacy';
import type { AppDeps } from '../../deps';
import { fillNotice } from '../../privacy/notice';

/** The notice in force, in every language, with the DPO's contact and the retention period written in. */
export function getPrivacyNotice(deps: AppDeps): PrivacyNoticeResponse {
  const { noticeVersion, dpoContact, retentionYears, noticeTexts } = deps.config.privacy;
  return {
    version: noticeVersion,
    dpoContact,
    retentionYears,
    texts: fillNotice(noticeTexts, { dpoContact, retentionYears }),
  };
}
