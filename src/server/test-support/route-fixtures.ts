import { sql } from 'kysely';
import { seedApplication, seedRequestedDisbursement, seedUnappliedPayment } from './seed';
import type { TestApp } from './test-app';

/** One object of each kind the API's `:id` routes act on, for tests that call every route. */
export interface RouteFixtures {
  /** A pending application (of another borrower). */
  pendingId: string;
  /** An approved loan of `owner`, with a requested payout, a repayment and its documents. */
  loanId: string;
  disbursementId: string;
  repaymentId: string;
  unappliedId: string;
  documentId: string;
  /** An open complaint of `owner`, with a picture. */
  complaintId: string;
  /** A finance user an admin may manage. */
  managedUserId: string;
  /** The default loan product (written at start from the settings). */
  productId: string;
}

/** Seeds the objects of `RouteFixtures`; the loan belongs to `owner`. */
export async function seedRouteFixtures(
  t: TestApp,
  owner: { id: string; phone: string },
): Promise<RouteFixtures> {
  const loanId = await seedApplication(t.db, {
    borrowerId: owner.id,
    phone: owner.phone,
    status: 'approved',
  });
  const pendingBorrower = await t.signUpBorrower();
  const pendingId = await seedApplication(t.db, {
    borrowerId: pendingBorrower.user.id,
    phone: pendingBorrower.phone,
  });
  const disbursementId = await seedRequestedDisbursement(t.db, loanId, 100_000);
  // Recorded directly (as the payment webhook would): the reverse route needs one to act on.
  const repayment = await t.db
    .insertInto('repayments')
    .values({
      application_id: loanId,
      amount: 10_000,
      received_on: '2026-01-01',
      channel: 'cash',
      reference: 'route-fixture',
      source: 'webhook',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const unappliedId = await seedUnappliedPayment(t.db, 'route-fixture-unapplied');
  const document = await t.db
    .selectFrom('documents')
    .select('id')
    .where('application_id', '=', loanId)
    .executeTakeFirstOrThrow();
  const complaint = await t.db
    .insertInto('complaints')
    .values({
      reference: sql<string>`'C-2026-' || lpad(nextval('complaint_reference_seq')::text, 6, '0')`,
      borrower_id: owner.id,
      application_id: loanId,
      category: 'payments',
      text: 'Route fixture complaint',
      picture_key: `complaints/${loanId}/fixture.jpg`,
      picture_content_type: 'image/jpeg',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const managed = await t.createUser({ role: 'finance' });
  const product = await t.db
    .selectFrom('products')
    .select('id')
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  return {
    pendingId,
    loanId,
    disbursementId,
    repaymentId: repayment.id,
    unappliedId,
    documentId: document.id,
    complaintId: complaint.id,
    managedUserId: managed.user.id,
    productId: product.id,
  };
}
