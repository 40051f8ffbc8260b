import { type SqlBool, sql } from 'kysely';
import type { RepaymentListQuery } from '../../../domain/schemas/payments';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { loanNumberMatchesSql } from '../../lib/loan-number-search';
import { nameWords } from '../../lib/name-starts';
import { borrowerSearch, everApprovedLoans, searchedListPage, toPage } from '../../lib/paging';

/**
 * The Repayments list: every recorded repayment, newest first, searchable by the borrower's name and phone
 * and by loan number (written any way, `lib/loan-number-search.ts`) or payment reference ("contains",
 * case-insensitive). Keys and the capped total come
 * from the (created_at, id) index (migration 017); the loan is joined for the search only.
 */
export async function listRepayments(deps: AppDeps, query: RepaymentListQuery) {
  const search = borrowerSearch(query);
  const found = query.name ? await nameWords(deps.db, query.name) : undefined;
  const pattern = query.q ? `%${escapeLike(query.q.toLowerCase())}%` : '';
  const repayments = () =>
    deps.db.selectFrom('repayments').select(['repayments.id', 'repayments.created_at as at']);
  // Newest first, each repayment's loan tested as the walk meets it: quick when matches are everywhere.
  let keys = repayments();
  if (search.length > 0 || query.q) {
    keys = keys.where((eb) =>
      eb.exists(
        eb
          .selectFrom('applications')
          .select(sql`1`.as('one'))
          .whereRef('applications.id', '=', 'repayments.application_id')
          .where(
            eb.and([
              ...search,
              ...(query.q
                ? [
                    sql<SqlBool>`(${loanNumberMatchesSql('applications.loan_number', query.q)} or lower(repayments.reference) like ${pattern})`,
                  ]
                : []),
            ]),
          ),
      ),
    );
  }
  // The same rows found from the other end (issue #35): the matching loans through their trigram indexes
  // (name, phone, loan number; migrations 003, 035), then their repayments; a reference through its own.
  // Walking 1.87 M repayments for a loan with six of them took seconds.
  const matches = () => {
    const loans = (byNumber: boolean) =>
      everApprovedLoans(
        deps.db,
        query,
        byNumber && query.q ? [loanNumberMatchesSql('applications.loan_number', query.q)] : [],
        found,
      );
    const ofLoans = deps.db
      .selectFrom(loans(true).as('loan'))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('repayments')
            .select(['repayments.id', 'repayments.created_at as at'])
            .whereRef('repayments.application_id', '=', 'loan.id')
            // Not flattened into a join PostgreSQL could drive from the repayments' side (a walk of them all).
            .offset(0)
            .as('r'),
        (join) => join.onTrue(),
      )
      .select(['r.id', 'r.at']);
    if (!query.q) return ofLoans;
    let byReference = repayments().where(sql<SqlBool>`lower(repayments.reference) like ${pattern}`);
    if (search.length > 0) byReference = byReference.where('repayments.application_id', 'in', loans(false));
    return ofLoans.union(byReference);
  };
  const { rows, counted } = await searchedListPage(
    deps.db,
    {
      keys,
      matches,
      searched: search.length > 0 || Boolean(query.q),
      page: query.page,
      // A loan brings its payments together (about six each, one index probe): collecting 10,000 matches
      // costs less than walking past the ~9,000 payments of other loans that separate ten of a full name's
      // ~4,600 at 1 M applications (issue #35; the walk probes each one's loan).
      sortLimit: 10_000,
      broadSearches: deps.broadSearches,
    },
    (page) =>
      page
        .innerJoin('repayments', 'repayments.id', 'page.id')
        .innerJoin('applications', 'applications.id', 'repayments.application_id')
        .leftJoin('repayment_reversals', 'repayment_reversals.repayment_id', 'repayments.id')
        .select([
          'repayments.id',
          'repayments.application_id',
          'applications.loan_number',
          'applications.full_name',
          'applications.phone',
          'repayments.amount',
          sql<string>`repayments.received_on::text`.as('received_on'),
          'repayments.channel',
          'repayments.reference',
          'repayments.source',
          'repayments.created_at',
          'repayment_reversals.repayment_id as reversed_id',
        ]),
  );
  const items = rows.map((r) => ({
    id: r.id,
    loanId: r.application_id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    amountMinor: Number(r.amount),
    receivedOn: r.received_on,
    channel: r.channel,
    reference: r.reference,
    source: r.source,
    recordedAt: r.created_at.toISOString(),
    reversed: r.reversed_id !== null,
  }));
  return toPage(items, counted, query.page);
}
