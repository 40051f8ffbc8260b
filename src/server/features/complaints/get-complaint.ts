import type { Readable } from 'node:stream';
import { AppError } from '../../../domain/errors';
import type { StaffComplaintDto } from '../../../domain/schemas/complaints';
import type { AppDeps } from '../../deps';
import { complaintAgeDays, complaintsWithPeople } from './list-complaints';

/** One complaint for staff: the text, who has it, the whole thread with authors, the resolution. */
export async function getComplaint(deps: AppDeps, id: string): Promise<StaffComplaintDto> {
  const row = await complaintsWithPeople(deps)
    .leftJoin('users as resolver', 'resolver.id', 'complaints.resolved_by')
    .select([
      'complaints.id',
      'complaints.reference',
      'complaints.category',
      'complaints.status',
      'complaints.text',
      'complaints.picture_key',
      'complaints.created_at',
      'complaints.resolved_at',
      'complaints.resolution_note',
      'complaints.assigned_to',
      'applications.full_name',
      'applications.loan_number',
      'borrower.phone',
      'assignee.username as assignee',
      'resolver.username as resolver',
    ])
    .where('complaints.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('COMPLAINT_NOT_FOUND');
  const replies = await deps.db
    .selectFrom('complaint_replies')
    .innerJoin('users', 'users.id', 'complaint_replies.author_id')
    .select([
      'complaint_replies.id',
      'complaint_replies.message',
      'complaint_replies.created_at',
      'users.username',
      'users.phone',
    ])
    .where('complaint_replies.complaint_id', '=', id)
    .orderBy('complaint_replies.created_at')
    .orderBy('complaint_replies.id')
    .execute();
  return {
    id: row.id,
    reference: row.reference,
    category: row.category,
    status: row.status,
    fullName: row.full_name,
    phone: row.phone,
    loanNumber: row.loan_number,
    createdAt: row.created_at.toISOString(),
    ageDays: complaintAgeDays(row.created_at, row.resolved_at, deps.clock.now()),
    assignedTo: row.assignee,
    assignedToId: row.assigned_to,
    replies: replies.length,
    text: row.text,
    hasPicture: row.picture_key !== null,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    resolvedBy: row.resolver,
    resolutionNote: row.resolution_note,
    replyList: replies.map((reply) => ({
      id: reply.id,
      message: reply.message,
      createdAt: reply.created_at.toISOString(),
      author: reply.username ?? reply.phone,
    })),
  };
}

/**
 * A complaint's picture: for the borrower who filed it (`borrowerId`) or, without one, for staff. Anyone else
 * gets "not found", as for documents, so ids cannot be probed.
 */
export async function getComplaintPicture(
  deps: AppDeps,
  id: string,
  borrowerId: string | null,
): Promise<{ stream: Readable; contentType: string; size: number }> {
  let query = deps.db
    .selectFrom('complaints')
    .select(['picture_key', 'picture_content_type'])
    .where('id', '=', id);
  if (borrowerId !== null) query = query.where('borrower_id', '=', borrowerId);
  const row = await query.executeTakeFirst();
  if (!row?.picture_key || !row.picture_content_type) throw new AppError('NOT_FOUND');
  const file = await deps.storage.get(row.picture_key);
  if (!file) throw new AppError('NOT_FOUND');
  return { stream: file.body, contentType: row.picture_content_type, size: file.size };
}
