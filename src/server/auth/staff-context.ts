import type { FastifyRequest } from 'fastify';
import { type AuditActor, auditActor } from '../audit/audit';
import type { User } from '../db/schema';
import { currentUser } from './plugin';

/** Who is acting, for checks (e.g. own phone) and for the audit trail. */
export interface StaffContext {
  staff: User;
  actor: AuditActor;
}

export function staffContext(request: FastifyRequest): StaffContext {
  const staff = currentUser(request);
  return { staff, actor: auditActor(staff, request) };
}
