import { sql } from 'kysely';
import type { StaffDisbursementItem } from '../../../domain/schemas/wallet';
import type { DisbursementStatus } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { nameWords } from '../../lib/name-starts';
import {
  borrowerSearch,
  everApprovedLoans,
  type ListPositions,
  payoutPositions,
  searchedListPage,
  toPage,
} from '../../lib/paging';
import { staffNameSql } from '../../lib/staff-name-sql';

export interface DisbursementQuery {
  page: number;
  name: string;
  phone: string;
  status?: DisbursementStatus | undefined;
}

/**
 * The payout queue: search by borrower name and phone, filter by status, newest request first. Keys come from
 * the (status,) requested_at, id index; unsearched, a deep page starts where migration 047's hour counts
 * point, with the exact total; a search's total is capped. The borrower is joined for the search only.
 */
export async function listDisbursements(
  deps: AppDeps,
  query: DisbursementQuery,
  /** Where an unsearched page starts (tests read it other ways). */
  positions: ListPositions = payoutPositions(query.status),
) {
  const search = borrowerSearch(query);
  const found = query.name ? await nameWords(deps.db, query.name) : undefined;
  let keys = deps.db
    .selectFrom('disbursements')
    .select(['disbursements.id', 'disbursements.requested_at as at']);
  if (query.status) keys = keys.where('disbursements.status', '=', query.status);
  if (search.length > 0) {
    keys = keys.where((eb) =>
      eb.exists(
        eb
          .selectFrom('applications')
          .select(sql`1`.as('one'))
          .whereRef('applications.id', '=', 'disbursements.application_id')
          .where(eb.and(search)),
      ),
    );
  }
  // The same rows found from the other end (issue #35): the matching loans through their trigram indexes,
  // then their payouts (disbursements_application_idx). Walking every payout for a name with few of them
  // took 1–2 s at 1 M applications.
  const matches = () => {
    return deps.db
      .selectFrom(everApprovedLoans(deps.db, query, [], found).as('loan'))
      .innerJoinLateral(
        (eb) => {
          let payouts = eb
            .selectFrom('disbursements')
            .select(['disbursements.id', 'disbursements.requested_at as at'])
            .whereRef('disbursements.application_id', '=', 'loan.id');
          if (query.status) payouts = payouts.where('disbursements.status', '=', query.status);
          // Not flattened into a join PostgreSQL could drive from the payouts' side (a walk of them all).
          return payouts.offset(0).as('d');
        },
        (join) => join.onTrue(),
      )
      .select(['d.id', 'd.at']);
  };
  const { rows, counted } = await searchedListPage(
    deps.db,
    {
      keys,
      matches,
      searched: search.length > 0,
      page: query.page,
      broadSearches: deps.broadSearches,
      // Unsearched, all payouts or one status: from the hour counts (migration 047), with the exact total.
      positions: search.length > 0 ? undefined : positions,
    },
    (page) =>
      page
        .innerJoin('disbursements', 'disbursements.id', 'page.id')
        .innerJoin('applications', 'applications.id', 'disbursements.application_id')
        .select([
          'disbursements.id',
          'disbursements.application_id',
          'disbursements.amount',
          'disbursements.fee_minor',
          'disbursements.bank_name',
          'disbursements.account_number',
          'disbursements.requested_at',
          'disbursements.status',
          'disbursements.reference',
          'disbursements.failure_reason',
          'disbursements.decided_at',
          staffNameSql(sql.ref('disbursements.decided_by')).as('decided_by_name'),
          'applications.loan_number',
          'applications.full_name',
          'applications.phone',
          'applications.status as loan_status',
        ]),
  );
  const items: StaffDisbursementItem[] = rows.map((r) => ({
    id: r.id,
    applicationId: r.application_id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    amountMinor: r.amount,
    feeMinor: Number(r.fee_minor),
    netMinor: r.amount - Number(r.fee_minor),
    bankName: r.bank_name,
    accountNumberLast4: r.account_number.slice(-4),
    requestedAt: r.requested_at.toISOString(),
    status: r.status,
    reference: r.reference,
    failureReason: r.failure_reason,
    decidedAt: r.decided_at?.toISOString() ?? null,
    decidedBy: r.decided_by_name,
    loanStatus: r.loan_status,
  }));
  return toPage(items, counted, query.page);
}
