import { type Kysely, sql } from 'kysely';
import { AppError } from '../../domain/errors';
import { loanBalance } from '../../domain/loan/balance';
import type { ApplicationProfile } from '../../domain/schemas/staff';
import { preparedLookup } from '../db/prepared-statements';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { withdrawnSql } from '../lib/loan-balance';
import { governingProductVersion } from '../products/product-versions';

const readProfile = preparedLookup((db: Kysely<Database>, id: string) =>
  db
    .selectFrom('applications')
    .leftJoin('users as decider', 'decider.id', 'applications.decided_by')
    .leftJoin('users as first_approver', 'first_approver.id', 'applications.first_approved_by')
    // The change waiting for the borrower, if any (at most one: a partial unique index), in the same read.
    .leftJoin('terms_changes as proposed', (join) =>
      join.onRef('proposed.application_id', '=', 'applications.id').on('proposed.status', '=', 'proposed'),
    )
    .selectAll('applications')
    .select([
      'proposed.id as proposed_id',
      'proposed.amount as proposed_amount',
      'proposed.term_months as proposed_term_months',
      'proposed.monthly_payment as proposed_monthly_payment',
      'proposed.reason as proposed_reason',
      'proposed.created_at as proposed_at',
    ])
    .select(
      sql<string | null>`coalesce(first_approver.username, first_approver.phone)`.as(
        'first_approved_by_name',
      ),
    )
    .select(sql<string | null>`coalesce(decider.username, decider.phone)`.as('decided_by_name'))
    .select(withdrawnSql(sql.ref('applications.id')).as('withdrawn'))
    .where('applications.id', '=', id),
);

/** Every field of an application for staff, with its documents and current balance. */
export async function getApplicationProfile(deps: AppDeps, id: string): Promise<ApplicationProfile> {
  const [row] = await readProfile(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  const product = await governingProductVersion(deps.db, row);
  const balance = loanBalance({
    status: row.status,
    approvedMinor: row.approved_amount,
    withdrawnMinor: Number(row.withdrawn),
  });
  return {
    id: row.id,
    loanNumber: row.loan_number,
    borrowerId: row.borrower_id,
    fullName: row.full_name,
    phone: row.phone,
    idNumber: row.id_number,
    amountMinor: row.amount,
    approvedAmountMinor: row.approved_amount,
    termMonths: row.term_months,
    monthlyRateBp: row.monthly_rate_bp,
    monthlyPaymentMinor: row.monthly_payment,
    companyName: row.company_name,
    position: row.position,
    incomeMinor: row.income,
    monthlyExpenseMinor: row.monthly_expense,
    address: row.address,
    email: row.email,
    contactName: row.contact_name,
    contactPhone: row.contact_phone,
    contactAddress: row.contact_address,
    contactRelation: row.contact_relation,
    bankName: row.bank_name,
    accountNumber: row.account_number,
    status: row.status,
    statusMessage: row.status_message,
    rejectReason: row.reject_reason,
    creditScore: row.credit_score,
    submittedAt: row.submitted_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by_name,
    withdrawnMinor: balance.withdrawnMinor,
    availableMinor: balance.availableMinor,
    documents: {
      idFront: row.doc_id_front,
      idBack: row.doc_id_back,
      selfie: row.doc_selfie,
      signature: row.doc_signature,
    },
    disclosure: row.disclosure as Record<string, unknown>,
    disclosureSha256: row.disclosure_sha256,
    firstApprovedBy: row.first_approved_at ? row.first_approved_by_name : null,
    firstApprovedAt: row.first_approved_at?.toISOString() ?? null,
    product: {
      code: product.code,
      version: product.version,
      names: { ...product.names },
      signedUnder: product.id === row.product_version_id,
      borrowerAmount: { ...product.borrowerAmount },
      staffAmount: { ...product.staffAmount },
      termsMonths: [...product.termsMonths],
      fourEyesThresholdMinor: product.fourEyesThresholdMinor,
    },
    termsChangePending: row.proposed_id !== null,
    proposedTerms:
      row.proposed_id !== null
        ? {
            amountMinor: row.proposed_amount!,
            termMonths: row.proposed_term_months!,
            monthlyPaymentMinor: row.proposed_monthly_payment!,
            reason: row.proposed_reason,
            proposedAt: row.proposed_at!.toISOString(),
          }
        : null,
  };
}
