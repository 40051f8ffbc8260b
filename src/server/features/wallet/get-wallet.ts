import { sql } from 'kysely';
import { loanBalance } from '../../../domain/loan/balance';
import { buildSchedule } from '../../../domain/loan/schedule';
import { wasApproved } from '../../../domain/loan/status';
import type { WalletResponse } from '../../../domain/schemas/wallet';
import type { AppDeps } from '../../deps';
import { hasOpenApplication, toMyApplicationDto } from '../../lib/applications';
import { toDisbursementDto } from '../../lib/disbursements';
import { withdrawnSql } from '../../lib/loan-balance';
import { todayIn } from '../../lib/today';

const HISTORY_LIMIT = 50;

/** Everything the wallet screen shows, derived from the records (SPEC principle 4). */
export async function getWallet(deps: AppDeps, borrowerId: string): Promise<WalletResponse> {
  // The newest application with its withdrawn sum in one query (the same row latestApplicationOf reads).
  const latest = await deps.db
    .selectFrom('applications')
    .selectAll()
    .select(withdrawnSql(sql.ref('applications.id')).as('withdrawn'))
    .where('borrower_id', '=', borrowerId)
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const canApply = !(await hasOpenApplication(deps, borrowerId));
  const history = await deps.db
    .selectFrom('borrower_events')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  const base = {
    canApply,
    history: history.map((e) => ({
      id: e.id,
      kind: e.kind,
      message: e.message,
      data: e.data,
      createdAt: e.created_at.toISOString(),
    })),
  };
  if (!latest) {
    return {
      ...base,
      application: null,
      balance: null,
      inProcessing: false,
      disbursements: [],
      schedule: [],
    };
  }

  const { withdrawn, ...application } = latest;
  const disbursements = await deps.db
    .selectFrom('disbursements')
    .selectAll()
    .where('application_id', '=', application.id)
    .orderBy('requested_at', 'desc')
    .execute();
  // A loan (approved, on hold or closed) has a balance and a schedule; an application has neither.
  const isLoan = wasApproved(application.status) && application.approved_amount !== null;
  const balance = loanBalance({
    status: application.status,
    approvedMinor: application.approved_amount,
    withdrawnMinor: Number(withdrawn),
  });
  const approved = balance.approvedMinor;
  const schedule =
    isLoan && application.decided_at
      ? buildSchedule({
          amountMinor: approved,
          termMonths: application.term_months,
          monthlyRateBp: application.monthly_rate_bp,
          startDate: todayIn(deps.config.timeZone, application.decided_at),
        })
      : [];
  return {
    ...base,
    application: toMyApplicationDto(application),
    balance: isLoan ? balance : null,
    inProcessing: disbursements.some((d) => d.status === 'requested'),
    disbursements: disbursements.map(toDisbursementDto),
    schedule: schedule.map((i) => ({
      number: i.number,
      dueDate: i.dueDate,
      paymentMinor: i.paymentMinor,
      principalMinor: i.principalMinor,
      interestMinor: i.interestMinor,
      balanceMinor: i.balanceMinor,
    })),
  };
}
