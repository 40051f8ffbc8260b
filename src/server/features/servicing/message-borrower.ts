import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { changeRunningLoan } from './change-running-loan';

export function messageBorrower(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { message: string; reason: string },
) {
  return changeRunningLoan(deps, ctx, id, input.reason, async (_trx, loan) => ({
    loan,
    action: 'loan.message_borrower',
    after: { message: input.message },
    notice: { kind: 'message', message: input.message },
  }));
}
