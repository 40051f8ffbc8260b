import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { rolesFor } from '../../../domain/permissions';
import { complaintMachine } from '../../../domain/status-machines';
import { type AuditEntry, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { queueBorrowerMessage } from '../../notify/sms-outbox';
import { getComplaint } from './get-complaint';

/**
 * Locks an open complaint for a staff action. Two staff acting at once queue on the row: the second sees what
 * the first did (a resolved complaint takes no more replies, assignments or resolutions).
 */
async function lockOpenComplaint(trx: Transaction<Database>, id: string) {
  const row = await trx
    .selectFrom('complaints')
    .select([
      'complaints.id',
      'complaints.reference',
      'complaints.status',
      'complaints.assigned_to',
      'complaints.application_id',
      'complaints.borrower_id',
    ])
    .where('complaints.id', '=', id)
    .forUpdate('complaints')
    .executeTakeFirst();
  if (!row) throw new AppError('COMPLAINT_NOT_FOUND');
  // Every staff action on a complaint starts from an open one.
  if (!complaintMachine.canApply('resolve', row.status)) throw new AppError('COMPLAINT_RESOLVED');
  return row;
}

/**
 * The borrower hears of a reply or a resolution by SMS: written into the outbox with the change, so it goes
 * once, in their language, and not at night (docs/decisions/041); one they may turn off.
 */
function tellBorrower(
  trx: Transaction<Database>,
  deps: AppDeps,
  complaint: { borrower_id: string; application_id: string | null; reference: string },
  kind: 'complaint_reply' | 'complaint_resolved',
) {
  return queueBorrowerMessage(
    trx,
    deps,
    { borrowerId: complaint.borrower_id, applicationId: complaint.application_id },
    { kind, reference: complaint.reference },
  );
}

/** Records a staff action on `complaint` in the audit log, in the action's own transaction. */
function auditComplaint(
  trx: Transaction<Database>,
  ctx: StaffContext,
  complaint: { id: string; application_id: string | null },
  entry: Omit<AuditEntry, 'targetType' | 'targetId' | 'loanId'>,
) {
  return recordAudit(trx, ctx.actor, {
    ...entry,
    targetType: 'complaint',
    targetId: complaint.id,
    loanId: complaint.application_id,
  });
}

/** After a staff action has committed: staff screens hear of it, and it answers the complaint as it stands. */
function changedComplaint(deps: AppDeps, id: string) {
  publishAfterCommit(deps, { type: 'complaints-changed' });
  return getComplaint(deps, id);
}

/** The roles that handle complaints (the permission table), the only ones a complaint can be given to. */
const handlers = [...rolesFor('complaint.handle')];

/** A reply the borrower reads under their complaint (and is told of by SMS); the complaint is then in progress. */
export async function replyToComplaint(deps: AppDeps, ctx: StaffContext, id: string, message: string) {
  await deps.db.transaction().execute(async (trx) => {
    const row = await lockOpenComplaint(trx, id);
    const status = complaintMachine.statusAfter('reply', row.status);
    await trx
      .insertInto('complaint_replies')
      .values({ complaint_id: id, author_id: ctx.staff.id, message })
      .execute();
    if (status !== row.status)
      await trx.updateTable('complaints').set({ status }).where('id', '=', id).execute();
    await auditComplaint(trx, ctx, row, {
      action: 'complaint.reply',
      before: { status: row.status },
      after: { status, message },
    });
    await tellBorrower(trx, deps, row, 'complaint_reply');
  });
  return changedComplaint(deps, id);
}

/** Gives the complaint to an active officer or admin (the roles that handle complaints). */
export async function assignComplaint(deps: AppDeps, ctx: StaffContext, id: string, assigneeId: string) {
  await deps.db.transaction().execute(async (trx) => {
    const assignee = await trx
      .selectFrom('users')
      .select(['id', 'username', 'phone'])
      .where('id', '=', assigneeId)
      .where('role', 'in', handlers)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (!assignee)
      throw new AppError('COMPLAINT_ASSIGNEE_INVALID', {
        fields: { assigneeId: 'COMPLAINT_ASSIGNEE_INVALID' },
      });
    const row = await lockOpenComplaint(trx, id);
    const before = row.assigned_to
      ? await trx
          .selectFrom('users')
          .select(['username', 'phone'])
          .where('id', '=', row.assigned_to)
          .executeTakeFirst()
      : undefined;
    const status = complaintMachine.statusAfter('assign', row.status);
    await trx
      .updateTable('complaints')
      .set({ assigned_to: assigneeId, status })
      .where('id', '=', id)
      .execute();
    await auditComplaint(trx, ctx, row, {
      action: 'complaint.assign',
      before: { status: row.status, assignedTo: before ? (before.username ?? before.phone) : null },
      after: { status, assignedTo: assignee.username ?? assignee.phone },
    });
  });
  return changedComplaint(deps, id);
}

/**
 * Resolves the complaint with a note the borrower reads. Exactly once: concurrent resolutions queue on the row
 * lock and every one after the first gets COMPLAINT_RESOLVED, changing nothing.
 */
export async function resolveComplaint(deps: AppDeps, ctx: StaffContext, id: string, note: string) {
  await deps.db.transaction().execute(async (trx) => {
    const row = await lockOpenComplaint(trx, id);
    await trx
      .updateTable('complaints')
      .set({
        status: complaintMachine.statusAfter('resolve', row.status),
        resolved_at: deps.clock.now(),
        resolved_by: ctx.staff.id,
        resolution_note: note,
      })
      .where('id', '=', id)
      .execute();
    await auditComplaint(trx, ctx, row, {
      action: 'complaint.resolve',
      before: { status: row.status },
      after: { status: 'resolved' },
      reason: note,
    });
    await tellBorrower(trx, deps, row, 'complaint_resolved');
  });
  return changedComplaint(deps, id);
}

/** Who a complaint can be given to: active officers and admins. */
export async function listAssignees(deps: AppDeps) {
  const rows = await deps.db
    .selectFrom('users')
    .select(['id', 'username', 'phone', 'role'])
    .where('role', 'in', handlers)
    .where('status', '=', 'active')
    .orderBy('username')
    .execute();
  return {
    assignees: rows.map((row) => ({ id: row.id, name: row.username ?? row.phone ?? row.id, role: row.role })),
  };
}
