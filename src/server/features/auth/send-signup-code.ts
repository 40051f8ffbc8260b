import { sql } from 'kysely';
import { defaultLanguage, type Language } from '../../../domain/languages';
import type { SendSignupCodeInput } from '../../../domain/schemas/auth';
import { codeSms, signupNoticeSms } from '../../../domain/sms-texts';
import { codeSendingDeps, codeSentAnswer, deliverCode, reserveCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';

/**
 * Sends a sign-up code. The answer never tells whether the phone is registered (issue #33): a registered
 * phone gets the same work and the same answer — the resend wait, the per-phone, per-address and overall
 * ceilings, a stored code — but its owner is sent a notice instead of the code, so nobody can finish a
 * sign-up with it. Both messages go to the notifier without waiting for it (a slow gateway does not tell
 * the two apart by time); a failed send of either removes the code, so a resend is not held up, and is
 * logged.
 * `clientIp`: the caller's address (request.ip), for the per-address ceiling on codes.
 */
export async function sendSignupCode(deps: AppDeps, input: SendSignupCodeInput, clientIp: string) {
  const sending = codeSendingDeps(deps);
  const target = { phone: input.phone, purpose: 'signup' as const, context: '' };
  const { reserved, registered, noticedToday, ownerLanguage } = await deps.db
    .transaction()
    .execute(async (trx) => {
      const reserved = await reserveCode(trx, sending, clientIp, target);
      const facts = await trx
        .selectNoFrom([
          sql<boolean>`exists (select 1 from users where phone = ${input.phone})`.as('registered'),
          // Read for every phone in the same statement, so a registered one costs no extra round trip.
          sql<Language | null>`(select language from users where phone = ${input.phone})`.as('ownerLanguage'),
          // The code just stored is one of them: any other sign-up code today means a notice went already.
          sql<number>`(select count(*) from verification_codes where phone = ${input.phone}
          and purpose = 'signup' and created_at > now() - interval '1 day')`.as('codesToday'),
        ])
        .executeTakeFirstOrThrow();
      return {
        reserved,
        registered: facts.registered,
        noticedToday: Number(facts.codesToday) > 1,
        ownerLanguage: facts.ownerLanguage,
      };
    });
  if (!registered || !noticedToday) {
    // The notice is delivered like a code (and its failure undone alike), only without the code in it.
    // A new phone has no account to hold a language: the code is written in the screen's (issue #36). The
    // owner of a registered phone reads the notice in their own.
    const screen = input.language ?? defaultLanguage;
    const text = registered
      ? () => signupNoticeSms(ownerLanguage ?? defaultLanguage)
      : (code: string) => codeSms.signup(screen, code);
    deliverCode(sending, reserved, target, text).catch((error: unknown) =>
      deps.log.error({ err: error }, 'sign-up message not delivered'),
    );
  }
  return codeSentAnswer(sending);
}
