import { type Kysely, sql, type Transaction } from 'kysely';
import type { Language } from '../../domain/languages';
import { addDays } from '../../domain/loan/calendar';
import { reminderKinds } from '../../domain/loan/reminders';
import type { runningStatuses } from '../../domain/loan/status';
import type { Database } from '../db/schema';
import { unpaidRunningLoanSql } from '../loans/loan-facts-sql';

type Db = Kysely<Database> | Transaction<Database>;

export interface ReminderCandidate {
  id: string;
  loan_number: string;
  borrower_id: string;
  status: (typeof runningStatuses)[number];
  term_months: number;
  terms: unknown;
  /** The borrower's own account phone: reminders go nowhere else. */
  phone: string;
  /** The borrower's stored language, the reminder's (issue #36). */
  language: Language;
}

/**
 * The loans that may need a payment reminder on `today`: running (approved or on hold), paid out, with an
 * instalment not fully paid that falls due within `daysBefore` days (or already has), with a phone, and
 * without a reminder today yet. It reads the stored loan facts (docs/decisions/012: `next_due_on` is the
 * oldest instalment not fully paid) through the overdue queue's index, so a day's run looks only at the
 * loans that owe something soon; the decision (domain `decideReminder`) replays each of them.
 */
export async function findReminderCandidates(
  db: Db,
  today: string,
  daysBefore: number,
): Promise<ReminderCandidate[]> {
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('users as u', 'u.id', 'a.borrower_id')
    .select([
      'a.id',
      'a.loan_number',
      'a.borrower_id',
      'a.status',
      'a.term_months',
      'a.terms',
      'u.phone',
      'u.language',
    ])
    .where(unpaidRunningLoanSql('a'))
    .where(sql<boolean>`a.next_due_on <= ${addDays(today, daysBefore)}::date`)
    .where('u.phone', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('loan_reminders as r')
            .select(sql`1`.as('one'))
            .whereRef('r.application_id', '=', 'a.id')
            .where('r.reminder_day', '=', today)
            // Only a reminder takes the day's one reminder; the message of a change (receipt…) does not.
            .where('r.kind', 'in', reminderKinds),
        ),
      ),
    )
    .orderBy('a.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    status: row.status as ReminderCandidate['status'],
    phone: row.phone as string,
  }));
}
