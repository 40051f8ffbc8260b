import { AppError } from '../../../domain/errors';
import type { ConsentInput } from '../../../domain/schemas/privacy';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';

/**
 * The borrower agrees to the notice in force (after the lender published a new version): a new consent row
 * (history is kept) and the user's current version, in one transaction. Agreeing again to the same version
 * changes nothing. A version other than the one in force was not what the borrower was shown.
 */
export async function recordConsent(
  deps: AppDeps,
  userId: string,
  input: ConsentInput,
  client: { ip: string | null; userAgent: string | null },
): Promise<User> {
  const version = deps.config.privacy.noticeVersion;
  if (input.privacyNoticeVersion !== version) {
    throw new AppError('PRIVACY_NOTICE_OUTDATED', {
      fields: { privacyNoticeVersion: 'PRIVACY_NOTICE_OUTDATED' },
    });
  }
  return deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (user.privacy_notice_version === version) return user;
    await trx
      .insertInto('consents')
      .values({
        user_id: userId,
        notice_version: version,
        context: 'reconsent',
        ip: client.ip,
        user_agent: client.userAgent,
      })
      .execute();
    return trx
      .updateTable('users')
      .set({ privacy_notice_version: version })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
