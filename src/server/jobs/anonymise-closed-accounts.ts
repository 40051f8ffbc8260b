import { sql, type Transaction } from 'kysely';
import { todayIn } from '../../domain/date-text';
import { reminderKinds } from '../../domain/loan/reminders';
import { openStatuses } from '../../domain/loan/status';
import { recordAudit, systemActor } from '../audit/audit';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { forgetUnusedNameWords, lockNameWords } from '../lib/name-starts';

/** What an anonymised account's password hash becomes: it names the algorithm (a check) and matches nothing. */
const NO_PASSWORD = '$argon2id$anonymised';
/** Applications keep their shape (checks on phone and account digits); the values say nothing. */
const NO_PHONE = '0000000000';
const NO_ACCOUNT = '0';
const MAX_PER_RUN = 200;

/**
 * The retention job (docs/decisions/019): every closed account whose retention period has ended (its
 * `anonymise_on` civil date has come, in the lender's time zone) and that is still closed has its personal
 * data replaced and its documents deleted from storage. Money records (loans, payouts, repayments) stay with
 * their amounts and dates; the audit log stays as it is (append-only). Each account is done in its own
 * transaction on its locked closure row, which records when it was done: a second run, or another instance
 * at the same time (`skip locked`), finds nothing left to do. Each anonymisation is audited (system actor).
 */
export async function runAnonymisation(deps: AppDeps): Promise<{ anonymised: number }> {
  const today = todayIn(deps.config.timeZone, deps.clock.now());
  let anonymised = 0;
  // A bounded batch per run: the next run (JOBS_INTERVAL_SECONDS later) takes the rest.
  while (anonymised < MAX_PER_RUN) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('account_closures')
        .innerJoin('users', 'users.id', 'account_closures.user_id')
        .select(['account_closures.user_id', 'account_closures.anonymise_on', 'users.phone'])
        .where('account_closures.anonymised_at', 'is', null)
        .where('account_closures.anonymise_on', '<=', today)
        // An admin may have reactivated the account: then it is no longer closed.
        .where('users.status', '=', 'deactivated')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('applications')
                .select('id')
                .whereRef('applications.borrower_id', '=', 'account_closures.user_id')
                .where('applications.status', 'in', openStatuses),
            ),
          ),
        )
        .orderBy('account_closures.anonymise_on')
        .limit(1)
        .forUpdate('account_closures')
        .skipLocked()
        .executeTakeFirst();
      if (!due) return false;
      await anonymiseAccount(deps, trx, due.user_id, due.phone);
      await recordAudit(trx, systemActor('retention-job', null), {
        action: 'user.anonymise',
        targetType: 'user',
        targetId: due.user_id,
        reason: `Retention period ended on ${due.anonymise_on}`,
      });
      return true;
    });
    if (!done) break;
    anonymised += 1;
  }
  if (anonymised > 0)
    deps.log.info({ anonymised }, 'closed accounts anonymised after their retention period');
  return { anonymised };
}

async function anonymiseAccount(
  deps: AppDeps,
  trx: Transaction<Database>,
  userId: string,
  phone: string | null,
) {
  // Files first: if the transaction then fails, the next run tries again, and deleting a missing key is no
  // error; the rows only say "erased" in the transaction that also removes everything else.
  const documents = await trx
    .selectFrom('documents')
    .select(['id', 'storage_key'])
    .where('owner_id', '=', userId)
    .where('erased_at', 'is', null)
    .execute();
  for (const document of documents) await deps.storage.delete(document.storage_key);
  const now = sql<Date>`now()`;
  if (documents.length > 0) {
    await trx
      .updateTable('documents')
      .set({ erased_at: now })
      .where(
        'id',
        'in',
        documents.map((d) => d.id),
      )
      .execute();
  }
  await trx
    .updateTable('users')
    .set({
      phone: null,
      username: null,
      password_hash: NO_PASSWORD,
      avatar: 1,
      last_login_at: null,
      anonymised_at: now,
    })
    .where('id', '=', userId)
    .execute();
  const loans = trx.selectFrom('applications').select('id').where('borrower_id', '=', userId);
  const names = await trx
    .selectFrom('applications')
    .select('full_name')
    .where('borrower_id', '=', userId)
    .execute();
  // Before the names change: the words they alone carried then leave the search's words too.
  await lockNameWords(trx);
  await trx
    .updateTable('applications')
    .set({
      phone: NO_PHONE,
      full_name: '',
      id_number: '',
      company_name: '',
      position: '',
      income: 0,
      monthly_expense: 0,
      address: '',
      email: null,
      contact_name: '',
      contact_phone: '',
      contact_address: '',
      bank_name: '',
      account_number: NO_ACCOUNT,
    })
    .where('borrower_id', '=', userId)
    .execute();
  await forgetUnusedNameWords(
    trx,
    names.map((row) => row.full_name),
  );
  await trx
    .updateTable('disbursements')
    .set({ bank_name: '', account_number: NO_ACCOUNT })
    .where('application_id', 'in', loans)
    .execute();
  await trx.updateTable('loan_reminders').set({ phone: '' }).where('borrower_id', '=', userId).execute();
  // A change's message may quote a staff reason naming the person (like staff messages below).
  await trx
    .updateTable('loan_reminders')
    .set({ text: '' })
    .where('borrower_id', '=', userId)
    .where('kind', 'not in', reminderKinds)
    .execute();
  // Staff messages may name the person; what happened (kind, amounts in data) stays.
  await trx.updateTable('borrower_events').set({ message: null }).where('borrower_id', '=', userId).execute();
  await trx
    .updateTable('consents')
    .set({ ip: null, user_agent: null })
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('account_closures')
    .set({ ip: null, user_agent: null, anonymised_at: now })
    .where('user_id', '=', userId)
    .execute();
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  if (phone) await trx.deleteFrom('verification_codes').where('phone', '=', phone).execute();
}
