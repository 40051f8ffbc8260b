import type { Selectable } from 'kysely';
import { openStatuses } from '../../domain/loan/status';
import type { MyApplicationDto } from '../../domain/schemas/application';
import type { ApplicationsTable } from '../db/schema';
import type { AppDeps } from '../deps';

export type ApplicationRow = Selectable<ApplicationsTable>;

/** The borrower's newest application (any status), and whether they may apply again. */
export async function latestApplicationOf(deps: Pick<AppDeps, 'db'>, borrowerId: string) {
  const latest = await deps.db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { application: latest ?? null, canApply: !(await hasOpenApplication(deps, borrowerId)) };
}

export async function hasOpenApplication(deps: Pick<AppDeps, 'db'>, borrowerId: string): Promise<boolean> {
  const open = await deps.db
    .selectFrom('applications')
    .select('id')
    .where('borrower_id', '=', borrowerId)
    // An application still being decided, or a running loan, blocks a new one (`openStatuses`).
    .where('status', 'in', openStatuses)
    .executeTakeFirst();
  return !!open;
}

export function toMyApplicationDto(row: ApplicationRow): MyApplicationDto {
  return {
    id: row.id,
    loanNumber: row.loan_number,
    status: row.status,
    statusMessage: row.status_message,
    rejectReason: row.reject_reason,
    fullName: row.full_name,
    phone: row.phone,
    amountMinor: row.amount,
    approvedAmountMinor: row.approved_amount,
    termMonths: row.term_months,
    monthlyRateBp: row.monthly_rate_bp,
    monthlyPaymentMinor: row.monthly_payment,
    creditScore: row.credit_score,
    bankName: row.bank_name,
    accountNumberLast4: row.account_number.slice(-4),
    submittedAt: row.submitted_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    disclosure: row.disclosure as Record<string, unknown>,
    disclosureSha256: row.disclosure_sha256,
  };
}
