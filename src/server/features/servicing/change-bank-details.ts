import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { changeRunningLoan } from './change-running-loan';

const masked = (account: string) => `****${account.slice(-4)}`;

/**
 * Changes where payouts go. Payouts already requested keep the destination they were requested with;
 * an unused withdrawal code stops working, because codes are bound to the account.
 */
export function changeBankDetails(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { bankName: string; accountNumber: string; reason: string },
) {
  return changeRunningLoan(deps, ctx, id, input.reason, async (trx, before) => {
    const after = await trx
      .updateTable('applications')
      .set({ bank_name: input.bankName, account_number: input.accountNumber })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      loan: after,
      action: 'loan.change_bank_details',
      // The audit log shows masked numbers too: nobody needs the full number to review the change.
      before: { bankName: before.bank_name, accountNumber: masked(before.account_number) },
      after: { bankName: after.bank_name, accountNumber: masked(after.account_number) },
      notice: {
        kind: 'bank_changed',
        data: { bankName: after.bank_name, accountNumberLast4: after.account_number.slice(-4) },
      },
    };
  });
}
