import { buildSchedule } from '../../../domain/loan/schedule';
import type { WalletResponse } from '../../../domain/schemas/wallet';
import type { AppDeps } from '../../deps';
import { latestApplicationOf, toMyApplicationDto } from '../../lib/applications';
import { toDisbursementDto } from '../../lib/disbursements';
import { withdrawnMinor } from '../../lib/loan-balance';
import { todayIn } from '../../lib/today';

const HISTORY_LIMIT = 50;

/** Everything the wallet screen shows, derived from the records (SPEC principle 4). */
export async function getWallet(deps: AppDeps, borrowerId: string): Promise<WalletResponse> {
  const { application, canApply } = await latestApplicationOf(deps, borrowerId);
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
  if (!application) {
    return {
      ...base,
      application: null,
      balance: null,
      inProcessing: false,
      disbursements: [],
      schedule: [],
    };
  }

  const disbursements = await deps.db
    .selectFrom('disbursements')
    .selectAll()
    .where('application_id', '=', application.id)
    .orderBy('requested_at', 'desc')
    .execute();
  const isLoan =
    ['approved', 'on_hold', 'closed'].includes(application.status) && application.approved_amount !== null;
  const withdrawn = isLoan ? await withdrawnMinor(deps.db, application.id) : 0;
  const approved = application.approved_amount ?? 0;
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
    balance: isLoan
      ? {
          approvedMinor: approved,
          withdrawnMinor: withdrawn,
          availableMinor: Math.max(0, approved - withdrawn),
        }
      : null,
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
