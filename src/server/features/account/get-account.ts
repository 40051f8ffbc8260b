import type { AccountResponse } from '../../../domain/schemas/wallet';
import type { AppDeps } from '../../deps';
import { latestApplicationOf } from '../../lib/applications';

export async function getAccount(deps: AppDeps, borrowerId: string): Promise<AccountResponse> {
  const { application: a } = await latestApplicationOf(deps, borrowerId);
  const loans = await deps.db
    .selectFrom('applications')
    .leftJoin('product_versions as v', 'v.id', 'applications.product_version_id')
    .select([
      'applications.loan_number',
      'applications.status',
      'applications.amount',
      'applications.approved_amount',
      'applications.term_months',
      'applications.submitted_at',
      'applications.closed_at',
      'applications.disclosure',
      'v.name_en',
      'v.name_fil',
      'v.name_zh',
      'v.name_km',
    ])
    .where('applications.borrower_id', '=', borrowerId)
    .orderBy('applications.submitted_at', 'desc')
    .execute();
  return {
    supportEmail: deps.config.supportEmail,
    creditScore: a?.credit_score ?? null,
    profile: a
      ? {
          fullName: a.full_name,
          idNumber: a.id_number,
          phone: a.phone,
          email: a.email,
          address: a.address,
          companyName: a.company_name,
          position: a.position,
          incomeMinor: a.income,
          monthlyExpenseMinor: a.monthly_expense,
          contactName: a.contact_name,
          contactPhone: a.contact_phone,
          contactRelation: a.contact_relation,
          bankName: a.bank_name,
          accountNumberLast4: a.account_number.slice(-4),
        }
      : null,
    loan: a
      ? {
          loanNumber: a.loan_number,
          status: a.status,
          // What the borrower asked for and signed, not a staff-changed amount (docs/decisions/018).
          amountMinor: requestedAmountMinor(a.disclosure) ?? a.amount,
          approvedAmountMinor: a.approved_amount,
          termMonths: a.term_months,
          monthlyPaymentMinor: a.monthly_payment,
          submittedAt: a.submitted_at.toISOString(),
          decidedAt: a.decided_at?.toISOString() ?? null,
        }
      : null,
    loans: loans.map((loan) => ({
      loanNumber: loan.loan_number,
      status: loan.status,
      amountMinor: requestedAmountMinor(loan.disclosure) ?? loan.amount,
      approvedAmountMinor: loan.approved_amount,
      termMonths: loan.term_months,
      submittedAt: loan.submitted_at.toISOString(),
      closedAt: loan.closed_at?.toISOString() ?? null,
      productNames:
        loan.name_en !== null && loan.name_fil !== null && loan.name_zh !== null && loan.name_km !== null
          ? { en: loan.name_en, fil: loan.name_fil, zh: loan.name_zh, km: loan.name_km }
          : null,
    })),
  };
}

/** The amount of the disclosure the borrower signed, if the snapshot holds one. */
function requestedAmountMinor(disclosure: unknown): number | null {
  const amount = (disclosure as { amountMinor?: unknown } | null)?.amountMinor;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null;
}
