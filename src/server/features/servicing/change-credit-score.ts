import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { changeRunningLoan } from './change-running-loan';

export function changeCreditScore(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { creditScore: number; reason: string },
) {
  return changeRunningLoan(deps, ctx, id, input.reason, async (trx, before) => {
    const after = await trx
      .updateTable('applications')
      .set({ credit_score: input.creditScore })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      loan: after,
      action: 'loan.change_credit_score',
      before: { creditScore: before.credit_score },
      after: { creditScore: after.credit_score },
      notice: { kind: 'credit_score_changed', data: { creditScore: after.credit_score } },
    };
  });
}
