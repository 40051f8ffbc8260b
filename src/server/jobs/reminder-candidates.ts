import { type Kysely, sql, type Transaction } from 'kysely';
import { runningStatuses } from '../../domain/loan/status';
import type { Database } from '../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export interface ReminderCandidate {
  id: string;
  loan_number: string;
  borrower_id: string;
  status: (typeof runningStatuses)[number];
  term_months: number;
  monthly_rate_bp: number;
  disclosure: unknown;
  /** The borrower's own account phone: reminders go nowhere else. */
  phone: string;
}

/**
 * The loans that may need a payment reminder on `today`: running (approved or on hold), paid out, with a
 * phone, and without a reminder today yet. The ONE place that selects them — the decision (domain
 * `decideReminder`) and the sending are elsewhere — so it can later be narrowed with stored per-loan facts
 * (next due date, oldest unpaid due date) without touching the rules.
 */
export async function findReminderCandidates(db: Db, today: string): Promise<ReminderCandidate[]> {
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('users as u', 'u.id', 'a.borrower_id')
    .select([
      'a.id',
      'a.loan_number',
      'a.borrower_id',
      'a.status',
      'a.term_months',
      'a.monthly_rate_bp',
      'a.disclosure',
      'u.phone',
    ])
    .where('a.status', 'in', [...runningStatuses])
    .where('u.phone', 'is not', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('disbursements as d')
          .select(sql`1`.as('one'))
          .whereRef('d.application_id', '=', 'a.id')
          .where('d.status', '=', 'paid'),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('loan_reminders as r')
            .select(sql`1`.as('one'))
            .whereRef('r.application_id', '=', 'a.id')
            .where('r.reminder_day', '=', today),
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
