import type { WalletResponse } from '../../../../domain/schemas/wallet';
import type { ShownStatus } from '../../../lib/status';

export type WalletStatusKind = 'pending' | 'approved' | 'processing' | 'onHold' | 'rejected' | 'closed';

/** The status each panel kind is shown as (colours from the one status map). */
export const walletShownStatus: Record<WalletStatusKind, ShownStatus> = {
  pending: 'pending',
  approved: 'approved',
  processing: 'processing',
  onHold: 'on_hold',
  rejected: 'rejected',
  closed: 'closed',
};

export interface WalletStatus {
  kind: WalletStatusKind;
  /** Staff's words for the borrower: the hold message or the rejection reason. */
  message: string | null;
}

/**
 * What the status panel shows. "In Processing" is not a loan status: it shows while a withdrawal of an
 * approved loan waits for finance. A hold outranks it, because the hold is what the borrower must act on.
 */
export function walletStatus(
  wallet: Pick<WalletResponse, 'application' | 'inProcessing'>,
): WalletStatus | null {
  const application = wallet.application;
  if (!application) return null;
  switch (application.status) {
    case 'pending':
      return { kind: 'pending', message: null };
    case 'rejected':
      return { kind: 'rejected', message: application.rejectReason || null };
    case 'on_hold':
      return { kind: 'onHold', message: application.statusMessage || null };
    case 'closed':
      return { kind: 'closed', message: null };
    case 'approved':
      return { kind: wallet.inProcessing ? 'processing' : 'approved', message: null };
  }
}

/** Withdrawals need an approved (not on-hold) loan with money left (SPEC §4). */
export function canWithdraw(wallet: Pick<WalletResponse, 'application' | 'balance'>): boolean {
  return wallet.application?.status === 'approved' && (wallet.balance?.availableMinor ?? 0) > 0;
}
