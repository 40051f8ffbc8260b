import type { Role } from '../../../../domain/roles';
import type { DisbursementDto } from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';

/** Finance / admin: the transfer went out, with its reference. 409 DISBURSEMENT_ALREADY_DECIDED if decided. */
export function markDisbursementPaid(id: string, reference: string) {
  return apiFetch<DisbursementDto>(`/api/staff/disbursements/${encodeURIComponent(id)}/paid`, {
    method: 'POST',
    body: { reference },
  });
}

/** Finance / admin: the transfer failed; the amount becomes available to the borrower again. */
export function markDisbursementFailed(id: string, reason: string) {
  return apiFetch<DisbursementDto>(`/api/staff/disbursements/${encodeURIComponent(id)}/failed`, {
    method: 'POST',
    body: { reason },
  });
}

/** SPEC §1: only finance and admins decide payouts. */
export function canDecideDisbursements(role: Role): boolean {
  return role === 'finance' || role === 'admin';
}
