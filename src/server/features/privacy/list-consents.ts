import type { ConsentList } from '../../../domain/schemas/privacy';
import type { AppDeps } from '../../deps';

/** The borrower's consent history, newest first, each marked whether it is to the notice in force. */
export async function listConsents(deps: AppDeps, userId: string): Promise<ConsentList> {
  const rows = await deps.db
    .selectFrom('consents')
    .select(['notice_version', 'context', 'consented_at'])
    .where('user_id', '=', userId)
    .orderBy('consented_at', 'desc')
    .orderBy('id')
    .execute();
  return {
    items: rows.map((row) => ({
      version: row.notice_version,
      context: row.context,
      consentedAt: row.consented_at.toISOString(),
      current: row.notice_version === deps.config.privacy.noticeVersion,
    })),
  };
}
