import { AppError } from '../../../domain/errors';
import { wasApproved } from '../../../domain/loan/status';
import type { LoanLedgerDto } from '../../../domain/schemas/repayments';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanPosition, toLoanPositionDto, toRepaymentLine } from '../../loans/loan-position';

/** Staff's view of a loan's money: schedule, every repayment with its allocation and reversal, payoff. */
export async function getLoanLedger(deps: AppDeps, loanId: string): Promise<LoanLedgerDto> {
  const loan = await deps.db
    .selectFrom('applications')
    .select(['id', 'loan_number', 'status', 'closed_at', 'term_months', 'terms'])
    .where('id', '=', loanId)
    .executeTakeFirst();
  if (!loan || !wasApproved(loan.status)) throw new AppError('NOT_FOUND');
  const { position, repayments } = await loanPosition(deps.db, loan, deps, today(deps));
  const applied = new Map(position.repayments.map((r) => [r.id, r]));
  return {
    loanId: loan.id,
    loanNumber: loan.loan_number,
    status: loan.status,
    closedAt: loan.closed_at?.toISOString() ?? null,
    position: toLoanPositionDto(position),
    repayments: repayments.map((r) => ({
      ...toRepaymentLine(r, applied),
      source: r.source,
      recordedBy: r.recordedBy,
      recordedAt: r.recordedAt.toISOString(),
      reversal: r.reversal
        ? {
            reason: r.reversal.reason,
            reversedBy: r.reversal.reversedBy,
            reversedAt: r.reversal.reversedAt.toISOString(),
          }
        : null,
    })),
  };
}
