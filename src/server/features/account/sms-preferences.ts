import type { SmsPreferences } from '../../../domain/schemas/user';
import type { AppDeps } from '../../deps';

/** The signed-in user's own SMS choice (docs/decisions/041): only ever their own row. */
export async function getSmsPreferences(deps: AppDeps, userId: string): Promise<SmsPreferences> {
  const row = await deps.db
    .selectFrom('users')
    .select('optional_sms')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { optionalSms: row.optional_sms };
}

/**
 * Turns the optional messages (a declined application, complaint replies) off or on again. Their own
 * preference, like the language, so not audited; messages already queued still go.
 */
export async function setSmsPreferences(deps: AppDeps, userId: string, input: SmsPreferences) {
  await deps.db
    .updateTable('users')
    .set({ optional_sms: input.optionalSms })
    .where('id', '=', userId)
    .execute();
  return { optionalSms: input.optionalSms };
}
