import { AppError } from '../../../domain/errors';
import type { DisbursementDestination } from '../../../domain/schemas/wallet';
import { recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';

/**
 * The full bank name and account number a payout goes to, so finance can send the transfer. Lists show
 * only the last four digits; each reveal is recorded in the audit log in the same transaction, without the
 * number itself (the audit log is read by more people than need it).
 */
export async function revealDestination(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
): Promise<DisbursementDestination> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('disbursements')
      .select(['id', 'application_id', 'bank_name', 'account_number'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    await recordAudit(trx, ctx.actor, {
      action: 'disbursement.reveal_destination',
      targetType: 'disbursement',
      targetId: id,
      loanId: row.application_id,
    });
    return { id: row.id, bankName: row.bank_name, accountNumber: row.account_number };
  });
}
