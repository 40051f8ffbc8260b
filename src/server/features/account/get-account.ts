import type { AccountResponse } from '../../../domain/schemas/wallet';
import type { AppDeps } from '../../deps';
import { latestApplicationOf } from '../../lib/applications';

export async function getAccount(deps: AppDeps, borrowerId: string): Promise<AccountResponse> {
  const { application: a } = await latestApplicationOf(deps, borrowerId);
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
  };
}

/** The amount of the disclosure the borrower signed, if the snapshot holds one. */
function requestedAmountMinor(disclosure: unknown): number | null {
  const amount = (disclosure as { amountMinor?: unknown } | null)?.amountMinor;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null;
}
