import { sql } from 'kysely';
import { borrowerEventKinds } from '../../../domain/borrower-events';
import { todayIn } from '../../../domain/date-text';
import { loanBalance } from '../../../domain/loan/balance';
import { wasApproved } from '../../../domain/loan/status';
import type { WalletResponse } from '../../../domain/schemas/wallet';
import type { AppDeps } from '../../deps';
import { hasOpenApplication, toMyApplicationDto } from '../../lib/applications';
import { today } from '../../lib/clock';
import { toDisbursementDto } from '../../lib/disbursements';
import { withdrawnSql } from '../../lib/loan-balance';
import { loanPosition, toInstalmentDto, toLoanPositionDto, toRepaymentLine } from '../../loans/loan-position';
import { walletPaymentChannels } from './payment-channels';

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
    // Only kinds this version can say (a row written by another version is skipped, never a 500).
    .where('kind', 'in', borrowerEventKinds)
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
      repayment: null,
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
  if (!isLoan) {
    return {
      ...base,
      application: toMyApplicationDto(application),
      balance: null,
      inProcessing: disbursements.some((d) => d.status === 'requested'),
      disbursements: disbursements.map(toDisbursementDto),
      schedule: [],
      repayment: null,
    };
  }
  // The schedule runs from the first payout, on the money actually paid out (docs/decisions/010).
  const [{ position, repayments }, refunds] = await Promise.all([
    loanPosition(deps.db, application, deps, today(deps)),
    deps.db
      .selectFrom('credit_refunds')
      .select(['amount', 'reference', 'created_at'])
      .where('application_id', '=', application.id)
      .orderBy('created_at')
      .execute(),
  ]);
  const paidOut = position.startDate !== null;
  const applied = new Map(position.repayments.map((r) => [r.id, r]));
  return {
    ...base,
    application: toMyApplicationDto(application),
    balance,
    inProcessing: disbursements.some((d) => d.status === 'requested'),
    disbursements: disbursements.map(toDisbursementDto),
    schedule: position.schedule.map(toInstalmentDto),
    repayment: {
      position: paidOut ? toLoanPositionDto(position) : null,
      repayments: repayments
        .map((r) => ({
          ...toRepaymentLine(r, applied),
          reversal: r.reversal
            ? { reason: r.reversal.reason, reversedAt: r.reversal.reversedAt.toISOString() }
            : null,
        }))
        .reverse(),
      paymentReference: application.loan_number,
      paymentChannels: walletPaymentChannels(deps.config.paymentChannels, {
        reference: application.loan_number,
        amountDueMinor: paidOut ? position.amountDueNowMinor : 0,
      }),
      closedAt: application.closed_at?.toISOString() ?? null,
      paidInFullOn:
        application.status === 'closed'
          ? (position.repayments
              .filter((r) => r.allocation !== null)
              .map((r) => r.receivedOn)
              .sort()
              .at(-1) ?? null)
          : null,
      refunds: refunds.map((f) => ({
        amountMinor: Number(f.amount),
        refundedOn: todayIn(deps.config.timeZone, f.created_at),
        reference: f.reference,
      })),
    },
  };
}
