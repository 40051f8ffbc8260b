import { type SqlBool, sql } from 'kysely';
import type {
  ComplaintListItem,
  ComplaintListQuery,
  ComplaintStatus,
} from '../../../domain/schemas/complaints';
import { PAGE_SIZE } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { pageOffset, toPage } from '../../lib/paging';

const DAY_MS = 86_400_000;

/** Whole days from filing to resolution, or to now while it is open. */
export function complaintAgeDays(createdAt: Date, resolvedAt: Date | null, now: Date): number {
  return Math.max(0, Math.floor(((resolvedAt ?? now).getTime() - createdAt.getTime()) / DAY_MS));
}

/** The complaints with who filed them (name from their application, phone from the account) and who has it. */
export function complaintsWithPeople(deps: AppDeps) {
  return deps.db
    .selectFrom('complaints')
    .innerJoin('users as borrower', 'borrower.id', 'complaints.borrower_id')
    .leftJoin('applications', 'applications.id', 'complaints.application_id')
    .leftJoin('users as assignee', 'assignee.id', 'complaints.assigned_to');
}

/**
 * The staff queue: open complaints by default (or one status, or all), oldest first so the longest wait is
 * on top; searchable by reference, borrower name and phone; paged on the server like every list.
 */
export async function listComplaints(deps: AppDeps, query: ComplaintListQuery) {
  let filtered = complaintsWithPeople(deps);
  if (query.status === 'open') filtered = filtered.where('complaints.status', '<>', 'resolved');
  else if (query.status !== 'all') filtered = filtered.where('complaints.status', '=', query.status);
  if (query.q) {
    filtered = filtered.where(
      sql<SqlBool>`lower(complaints.reference) like ${`%${escapeLike(query.q.toLowerCase())}%`}`,
    );
  }
  if (query.name) {
    filtered = filtered.where(
      sql<SqlBool>`lower(applications.full_name) like ${`%${escapeLike(query.name.toLowerCase())}%`}`,
    );
  }
  if (query.phone) {
    filtered = filtered.where(sql<SqlBool>`borrower.phone like ${`%${escapeLike(query.phone)}%`}`);
  }
  const [{ total }, rows] = await Promise.all([
    filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    filtered
      .select([
        'complaints.id',
        'complaints.reference',
        'complaints.category',
        'complaints.status',
        'complaints.created_at',
        'complaints.resolved_at',
        'applications.full_name',
        'borrower.phone',
        'assignee.username as assignee',
      ])
      .select((eb) =>
        eb
          .selectFrom('complaint_replies')
          .select(sql<string>`count(*)`.as('n'))
          .whereRef('complaint_replies.complaint_id', '=', 'complaints.id')
          .as('replies'),
      )
      .orderBy('complaints.created_at')
      .orderBy('complaints.reference')
      .limit(PAGE_SIZE)
      .offset(pageOffset(query.page))
      .execute(),
  ]);
  const now = deps.clock.now();
  const items: ComplaintListItem[] = rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    category: row.category,
    status: row.status as ComplaintStatus,
    fullName: row.full_name,
    phone: row.phone,
    createdAt: row.created_at.toISOString(),
    ageDays: complaintAgeDays(row.created_at, row.resolved_at, now),
    assignedTo: row.assignee,
    replies: Number(row.replies ?? 0),
  }));
  // Complaints are few next to loans: an exact count.
  return toPage(items, { total: Number(total), totalCapped: false }, query.page);
}
