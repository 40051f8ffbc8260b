import type { MyComplaintDto } from '../../../domain/schemas/complaints';
import type { AppDeps } from '../../deps';

/**
 * The borrower's own complaints, newest first, each with every reply (oldest first) and the resolution.
 * `onlyId` narrows it to one of them (still only the borrower's own).
 */
export async function myComplaints(
  deps: AppDeps,
  borrowerId: string,
  onlyId?: string,
): Promise<MyComplaintDto[]> {
  let query = deps.db
    .selectFrom('complaints')
    .select([
      'id',
      'reference',
      'category',
      'text',
      'status',
      'created_at',
      'resolved_at',
      'resolution_note',
      'picture_key',
    ])
    .where('borrower_id', '=', borrowerId)
    .orderBy('created_at', 'desc')
    .orderBy('reference', 'desc');
  if (onlyId) query = query.where('id', '=', onlyId);
  const rows = await query.execute();
  const replies =
    rows.length === 0
      ? []
      : await deps.db
          .selectFrom('complaint_replies')
          .select(['id', 'complaint_id', 'message', 'created_at'])
          .where(
            'complaint_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('created_at')
          .orderBy('id')
          .execute();
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    category: row.category,
    text: row.text,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    resolutionNote: row.resolution_note,
    hasPicture: row.picture_key !== null,
    // The borrower reads the lender's answer; staff names stay in the back office.
    replies: replies
      .filter((reply) => reply.complaint_id === row.id)
      .map((reply) => ({
        id: reply.id,
        message: reply.message,
        createdAt: reply.created_at.toISOString(),
        author: null,
      })),
  }));
}
