import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';

const masked = (account: string) => `****${account.slice(-4)}`;

/**
 * Changes where payouts go. Payouts already requested keep the destination they were requested with;
 * an unused withdrawal code stops working, because codes are bound to the account.
 */
export async function changeBankDetails(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { bankName: string; accountNumber: string; reason: string },
) {
  return deps.db.transaction().execute(async (trx) => {
    const before = await lockRunningLoan(trx, id);
    const after = await trx
      .updateTable('applications')
      .set({ bank_name: input.bankName, account_number: input.accountNumber })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, ctx.actor, {
      action: 'loan.change_bank_details',
      targetType: 'loan',
      targetId: id,
      loanId: id,
      // The audit log shows masked numbers too: nobody needs the full number to review the change.
      before: { bankName: before.bank_name, accountNumber: masked(before.account_number) },
      after: { bankName: after.bank_name, accountNumber: masked(after.account_number) },
      reason: input.reason,
    });
    await notifyBorrower(trx, {
      borrowerId: after.borrower_id,
      applicationId: id,
      kind: 'bank_changed',
      data: { bankName: after.bank_name, accountNumberLast4: after.account_number.slice(-4) },
    });
    return after;
  });
}
