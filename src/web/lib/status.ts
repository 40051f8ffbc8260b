import type { MantineColor } from '@mantine/core';
import type { ProductStatus } from '../../domain/loan/products';
import type { LoanStatus } from '../../domain/loan/status';
import type { ComplaintStatus } from '../../domain/schemas/complaints';
import type { UnappliedStatus } from '../../domain/schemas/payments';

/** Everything shown as a status: loan statuses (SPEC §4), "In Processing", payouts, user accounts, products. */
export type ShownStatus =
  | LoanStatus
  | 'processing'
  | 'requested'
  | 'paid'
  | 'failed'
  | 'active'
  | 'deactivated'
  | UnappliedStatus
  | ComplaintStatus
  | ProductStatus
  | ClosedAccountData;

/** A closed account's data (SPEC §8 retention): kept until its date, then anonymised. */
type ClosedAccountData = 'kept' | 'anonymised';

export interface StatusLook {
  /** The colour family, for light surfaces (alerts, light badges). */
  color: MantineColor;
  /** The same colour in a shade with readable text on it, for filled badges and chart slices. */
  filled: MantineColor;
  /** Locale key of the status's short name. */
  label: string;
}

/**
 * How every screen shows a status, in one map (SPEC §4 colours: Pending amber, Approved green, In
 * Processing blue, On hold and Rejected red, Closed grey).
 */
export const statusLooks: Readonly<Record<ShownStatus, StatusLook>> = {
  pending: { color: 'yellow', filled: 'yellow.5', label: 'status.pending' },
  approved: { color: 'green', filled: 'green.8', label: 'status.approved' },
  on_hold: { color: 'red', filled: 'red.7', label: 'status.on_hold' },
  rejected: { color: 'red', filled: 'red.7', label: 'status.rejected' },
  closed: { color: 'gray', filled: 'gray.6', label: 'status.closed' },
  processing: { color: 'blue', filled: 'blue.7', label: 'wallet.status.processing.title' },
  requested: { color: 'blue', filled: 'blue.7', label: 'status.requested' },
  paid: { color: 'green', filled: 'green.8', label: 'status.paid' },
  failed: { color: 'red', filled: 'red.7', label: 'status.failed' },
  active: { color: 'green', filled: 'green.8', label: 'users.status.active' },
  deactivated: { color: 'gray', filled: 'gray.6', label: 'users.status.deactivated' },
  // A provider payment kept for finance: open (to resolve), applied to a loan, or sent back.
  open: { color: 'yellow', filled: 'yellow.5', label: 'collections.unapplied.status.open' },
  applied: { color: 'green', filled: 'green.8', label: 'collections.unapplied.status.applied' },
  returned: { color: 'gray', filled: 'gray.6', label: 'collections.unapplied.status.returned' },
  // A borrower's complaint (issue #14): received, being handled, resolved.
  received: { color: 'blue', filled: 'blue.7', label: 'complaints.status.received' },
  in_progress: { color: 'yellow', filled: 'yellow.5', label: 'complaints.status.in_progress' },
  resolved: { color: 'green', filled: 'green.8', label: 'complaints.status.resolved' },
  // A loan product no longer offered (docs/decisions/034); an offered one is 'active', like a user.
  retired: { color: 'gray', filled: 'gray.6', label: 'products.status.retired' },
  kept: { color: 'blue', filled: 'blue.7', label: 'privacy.staff.kept' },
  anonymised: { color: 'gray', filled: 'gray.6', label: 'privacy.staff.anonymised' },
};

export function statusLook(status: ShownStatus): StatusLook {
  return statusLooks[status];
}
