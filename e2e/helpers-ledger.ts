import type { Browser } from 'playwright-core';
import { type ApiSession, expectStatus } from './support/api';
import { launchBrowser } from './support/browser';
import { adminSession, chargeLateOnTheDefaultProduct, type StaffMember, staffMember } from './support/staff';

/** A loan's position as the staff ledger states it. */
interface LedgerPosition {
  amountDueNowMinor: number;
  payoffMinor: number;
  overdueMinor: number;
  lateChargesDueMinor: number;
  daysPastDue: number;
  creditMinor: number;
}

/** A loan's status and position from the staff ledger, read as `staff`. */
export async function staffLedger(staff: ApiSession, loanId: string) {
  const ledger = await staff.request<{ status: string; position: LedgerPosition }>(
    'GET',
    `/api/staff/loans/${loanId}/ledger`,
  );
  expectStatus(ledger, 200, 'ledger');
  return ledger.body;
}

/**
 * What the repayment specs start from: a browser, the default product charging `lateChargeBp` on late
 * instalments, and an officer and a finance member signed in through the API.
 */
export async function browserAndStaffWithLateCharge(
  lateChargeBp: number,
): Promise<{ browser: Browser; officer: StaffMember; finance: StaffMember }> {
  const browser = await launchBrowser();
  await chargeLateOnTheDefaultProduct(await adminSession(), lateChargeBp);
  return { browser, officer: await staffMember('officer'), finance: await staffMember('finance') };
}
