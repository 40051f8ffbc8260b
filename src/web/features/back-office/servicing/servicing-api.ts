import type { ApplicationProfile } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';

/** POST /api/staff/loans/:id/<action>: each answers the updated profile. */
function post<T = ApplicationProfile>(id: string, action: string, body: object) {
  return apiFetch<T>(`/api/staff/loans/${encodeURIComponent(id)}/${action}`, { method: 'POST', body });
}

/** Hold (the message is shown to the borrower) or release; 409 STATUS_UNCHANGED when already so. */
export const changeLoanStatus = (
  id: string,
  body: { action: 'hold' | 'release'; message?: string; reason: string },
) => post(id, 'status', body);

export const changeBankDetails = (
  id: string,
  body: { bankName: string; accountNumber: string; reason: string },
) => post(id, 'bank-details', body);

export const changeCreditScore = (id: string, body: { creditScore: number; reason: string }) =>
  post(id, 'credit-score', body);

export const messageBorrower = (id: string, body: { message: string; reason: string }) =>
  post(id, 'message', body);

/** `amount` in whole pesos (staff range); never below what was already withdrawn. */
export const changeLoanAmount = (id: string, body: { amount: number; reason: string }) =>
  post(id, 'amount', body);

/** Admin only: a temporary password the borrower must change at next login; their sessions end. */
export const resetBorrowerPassword = (id: string, body: { reason: string }) =>
  post<{ temporaryPassword: string }>(id, 'reset-password', body);
