import { type SelectQueryBuilder, sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { Language } from '../../../domain/languages';
import { buildStatementOfAccount } from '../../../domain/loan/repayments';
import { approvedStatuses } from '../../../domain/loan/status';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanPosition } from '../../loans/loan-position';
import { type StatementLoanStatus, statementDocument } from './statement-text';

/** No lender name is configured: the statement is issued under the product's name. */
const LENDER_NAME = 'Hiram';

export interface StatementPdf {
  filename: string;
  pdf: Buffer;
}

type LoanQuery = SelectQueryBuilder<Database, 'applications', object>;

/** Loans (approved, on hold or closed) with at least one payout marked paid: only they have a statement. */
function paidOutLoans(deps: AppDeps): LoanQuery {
  return deps.db
    .selectFrom('applications')
    .where('status', 'in', approvedStatuses)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('disbursements')
          .select(sql`1`.as('one'))
          .whereRef('disbursements.application_id', '=', 'applications.id')
          .where('disbursements.status', '=', 'paid'),
      ),
    );
}

async function statementFor(deps: AppDeps, query: LoanQuery, language: Language): Promise<StatementPdf> {
  const loan = await query
    .select(['id', 'loan_number', 'full_name', 'status', 'approved_amount', 'term_months', 'terms'])
    .executeTakeFirst();
  if (!loan || loan.approved_amount === null) throw new AppError('LOAN_NOT_FOUND');
  const asOf = today(deps);
  const { position, records, repayments } = await loanPosition(deps.db, loan, deps, asOf);
  const document = statementDocument(
    {
      lenderName: LENDER_NAME,
      supportEmail: deps.config.supportEmail,
      loan: {
        loanNumber: loan.loan_number,
        borrowerName: loan.full_name,
        status: loan.status as StatementLoanStatus,
        approvedMinor: loan.approved_amount,
        termMonths: loan.term_months,
        monthlyRateBp: records.monthlyRateBp,
      },
      statement: buildStatementOfAccount(records, asOf),
      payoffMinor: position.payoffMinor,
      dueNowMinor: position.amountDueNowMinor,
      references: new Map(repayments.map((r) => [r.id, r.reference])),
    },
    language,
  );
  const { renderStatementPdf } = await import('./render-statement'); // with pdfkit: not at start-up (#35)
  const pdf = await renderStatementPdf(document, { createdAt: deps.clock.now() });
  return { filename: `statement-${loan.loan_number}-${asOf}.pdf`, pdf };
}

/** The borrower's statement: their latest loan that has been paid out. */
export function getOwnStatement(deps: AppDeps, borrowerId: string, language: Language) {
  const latest = paidOutLoans(deps)
    .where('borrower_id', '=', borrowerId)
    .orderBy('submitted_at', 'desc')
    .limit(1);
  return statementFor(deps, latest, language);
}

/**
 * Any paid-out loan's statement, for staff. A read like the ledger it is printed from, so it is not audited
 * (only reveals of what lists hide, such as a payout's full account number, are).
 */
export function getLoanStatement(deps: AppDeps, loanId: string, language: Language) {
  return statementFor(deps, paidOutLoans(deps).where('id', '=', loanId), language);
}
