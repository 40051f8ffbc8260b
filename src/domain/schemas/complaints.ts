import { z } from 'zod';
import { limits } from './limits';
import { listQuerySchema, pageOf } from './staff';
import { text } from './text';

/**
 * Complaints (issue #14; RA 11765 "Financial Products and Services Consumer Protection Act" redress and SEC
 * MC 18 s.2019): what a borrower may complain about, a fixed list so the queue can be read at a glance.
 */
export const complaintCategories = [
  'collection_practices',
  'fees_and_charges',
  'loan_terms',
  'payments',
  'privacy',
  'staff_conduct',
  'app_problem',
  'other',
] as const;
export type ComplaintCategory = (typeof complaintCategories)[number];

/** received → in_progress (a reply or an assignment) → resolved (with a resolution note). */
export const complaintStatuses = ['received', 'in_progress', 'resolved'] as const;
export type ComplaintStatus = (typeof complaintStatuses)[number];

/** "C-2026-000123": the year it was filed (lender's time zone) and a running number. */
export const complaintReferencePattern = /^C-\d{4}-\d{6,}$/;

const requiredText = (code: 'COMPLAINT_TEXT_REQUIRED' | 'COMPLAINT_REPLY_REQUIRED', max: number) =>
  text({ error: code }).trim().min(1, { error: code, abort: true }).max(max, { error: 'FIELD_TOO_LONG' });

/** The text fields of a borrower's complaint (multipart, with an optional `picture` file). */
export const fileComplaintSchema = z.object({
  category: z.enum(complaintCategories, { error: 'COMPLAINT_CATEGORY_INVALID' }),
  text: requiredText('COMPLAINT_TEXT_REQUIRED', limits.complaintText),
});

export const complaintReplySchema = z.object(
  { message: requiredText('COMPLAINT_REPLY_REQUIRED', limits.complaintReply) },
  { error: 'COMPLAINT_REPLY_REQUIRED' },
);
export const complaintResolveSchema = z.object(
  {
    note: text({ error: 'COMPLAINT_RESOLUTION_REQUIRED' })
      .trim()
      .min(1, { error: 'COMPLAINT_RESOLUTION_REQUIRED', abort: true })
      .max(limits.complaintReply, { error: 'FIELD_TOO_LONG' }),
  },
  { error: 'COMPLAINT_RESOLUTION_REQUIRED' },
);
export const complaintAssignSchema = z.object(
  { assigneeId: z.uuid({ error: 'COMPLAINT_ASSIGNEE_INVALID' }) },
  { error: 'COMPLAINT_ASSIGNEE_INVALID' },
);

export const complaintReplyDto = z.object({
  id: z.string(),
  message: z.string(),
  createdAt: z.string(),
  /** Staff see who wrote it; the borrower sees the lender's reply without a staff name. */
  author: z.string().nullable(),
});

/** A complaint as its borrower sees it: status, every reply and the resolution. */
export const myComplaintDto = z.object({
  id: z.string(),
  reference: z.string(),
  category: z.enum(complaintCategories),
  text: z.string(),
  status: z.enum(complaintStatuses),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  /** A private picture (GET /api/complaints/:id/picture), or null. */
  hasPicture: z.boolean(),
  replies: z.array(complaintReplyDto),
});
export type MyComplaintDto = z.infer<typeof myComplaintDto>;
export const myComplaintsResponse = z.object({ complaints: z.array(myComplaintDto) });
export type MyComplaintsResponse = z.infer<typeof myComplaintsResponse>;

/** The staff queue: search by reference, name or phone; open ones by default, oldest first. */
export const complaintListQuery = z.object({
  page: listQuerySchema.shape.page,
  name: listQuerySchema.shape.name,
  phone: listQuerySchema.shape.phone,
  q: text().trim().max(40).optional().default(''),
  status: z
    .enum(['open', ...complaintStatuses, 'all'])
    .optional()
    .default('open'),
});
export type ComplaintListQuery = z.infer<typeof complaintListQuery>;

export const complaintListItem = z.object({
  id: z.string(),
  reference: z.string(),
  category: z.enum(complaintCategories),
  status: z.enum(complaintStatuses),
  fullName: z.string().nullable(),
  phone: z.string().nullable(),
  createdAt: z.string(),
  /** Whole days since it was filed (until resolved: then the days it took). */
  ageDays: z.number(),
  assignedTo: z.string().nullable(),
  replies: z.number(),
});
export type ComplaintListItem = z.infer<typeof complaintListItem>;
export const complaintPage = pageOf(complaintListItem);

export const staffComplaintDto = complaintListItem.extend({
  text: z.string(),
  hasPicture: z.boolean(),
  assignedToId: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  loanNumber: z.string().nullable(),
  replyList: z.array(complaintReplyDto),
});
export type StaffComplaintDto = z.infer<typeof staffComplaintDto>;

export const complaintAssignee = z.object({ id: z.string(), name: z.string(), role: z.string() });
export const complaintAssigneesResponse = z.object({ assignees: z.array(complaintAssignee) });
export type ComplaintAssignee = z.infer<typeof complaintAssignee>;
