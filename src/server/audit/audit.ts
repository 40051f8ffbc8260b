import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { AuditAction, AuditField, AuditTargetType } from '../../domain/audit-fields';
import type { BorrowerEventKind } from '../../domain/borrower-events';
import type { Role } from '../../domain/roles';
import { storableOrNull } from '../../domain/schemas/text';
import type { Database, User } from '../db/schema';

export interface AuditActor {
  /** The staff user; null for the system (no person acted). */
  id: string | null;
  username: string | null;
  role: Role | 'system';
  ip: string | null;
}

export function auditActor(user: User, request: Pick<FastifyRequest, 'ip'>): AuditActor {
  return {
    id: user.id,
    username: user.username ?? user.phone,
    role: user.role,
    ip: storableOrNull(request.ip),
  };
}

/**
 * Work no person did, e.g. a payment the provider's webhook reported: role 'system', no user id, the name of
 * the integration as the username and the caller's address as the IP.
 */
export function systemActor(name: string, ip: string | null): AuditActor {
  return { id: null, username: name, role: 'system', ip };
}

/** The fields of a change: only those the audit catalogue knows, so the screen and the CSV can name them. */
export type AuditFields = Partial<Record<AuditField, unknown>>;

export interface AuditEntry {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  loanId?: string | null;
  before?: AuditFields;
  after?: AuditFields;
  reason?: string | null;
}

/** Only the fields whose value changed, as { field: { before, after } }. */
export function diffFields(before: AuditFields = {}, after: AuditFields = {}) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<AuditField>) {
    const b = before[key] ?? null;
    const a = after[key] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[key] = { before: b, after: a };
  }
  return changes;
}

/**
 * The one way a staff write is recorded. It takes the transaction of the change itself, so the change and
 * its audit event commit or roll back together; the table refuses UPDATE and DELETE (a trigger).
 */
export async function recordAudit(
  trx: Transaction<Database>,
  actor: AuditActor,
  entry: AuditEntry,
): Promise<void> {
  await trx
    .insertInto('audit_events')
    .values({
      actor_id: actor.id,
      actor_username: actor.username,
      actor_role: actor.role,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      loan_id: entry.loanId ?? null,
      changes: JSON.stringify(diffFields(entry.before, entry.after)),
      reason: entry.reason ?? null,
      // The client's address (a forwarded header behind a proxy) goes through the domain's text rule.
      ip: storableOrNull(actor.ip),
    })
    .execute();
}

/** Tells the borrower about a change to their application or loan (their status panel history). */
export async function notifyBorrower(
  trx: Transaction<Database>,
  event: {
    borrowerId: string;
    applicationId: string | null;
    kind: BorrowerEventKind;
    message?: string | null;
    data?: object;
  },
): Promise<void> {
  await trx
    .insertInto('borrower_events')
    .values({
      borrower_id: event.borrowerId,
      application_id: event.applicationId,
      kind: event.kind,
      message: event.message ?? null,
      data: JSON.stringify(event.data ?? {}),
    })
    .execute();
}
