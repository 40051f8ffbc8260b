import { AppError } from '../../../domain/errors';
import type { Language } from '../../../domain/languages';
import { recordAudit } from '../../audit/audit';
import { lockUser } from '../../auth/reset-password';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';

/**
 * A borrower asked staff (by phone, at the office) to be sent everything in another language (issue #36):
 * the loan's borrower gets it from the next message on. Any loan of theirs will do, whatever its status:
 * a borrower whose application was declined still gets codes and complaint replies. Audited with the change.
 */
export async function changeBorrowerLanguage(
  deps: AppDeps,
  ctx: StaffContext,
  loanId: string,
  input: { language: Language; reason: string },
) {
  await deps.db.transaction().execute(async (trx) => {
    const loan = await trx
      .selectFrom('applications')
      .select(['id', 'borrower_id'])
      .where('id', '=', loanId)
      .executeTakeFirst();
    if (!loan) throw new AppError('NOT_FOUND');
    const borrower = await lockUser(trx, loan.borrower_id);
    await trx.updateTable('users').set({ language: input.language }).where('id', '=', borrower.id).execute();
    await recordAudit(trx, ctx.actor, {
      action: 'user.change_language',
      targetType: 'user',
      targetId: borrower.id,
      loanId: loan.id,
      before: { language: borrower.language },
      after: { language: input.language },
      reason: input.reason,
    });
  });
}
