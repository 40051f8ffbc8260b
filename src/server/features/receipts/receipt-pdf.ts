import type { Language } from '../../../domain/languages';
import type { AppDeps } from '../../deps';
import { getPaymentReceipt, getPayoutReceipt, type ReceiptViewer } from './get-receipt';
import { paymentReceiptDocument, payoutReceiptDocument } from './receipt-text';

/** No lender name is configured: documents are issued under the product's name (as the statement is). */
const LENDER_NAME = 'Hiram';

/** The renderer, with pdfkit and the fonts' shaping, is loaded by the first receipt, not at start-up (#35). */
const renderReceiptPdf: typeof import('./render-receipt').renderReceiptPdf = async (...args) =>
  (await import('./render-receipt')).renderReceiptPdf(...args);

const contextOf = (deps: AppDeps) => ({
  lenderName: LENDER_NAME,
  supportEmail: deps.config.supportEmail,
  timeZone: deps.config.timeZone,
  now: deps.clock.now(),
});

/** A payment's receipt as a PDF in the reader's language. */
export async function paymentReceiptPdf(
  deps: AppDeps,
  repaymentId: string,
  viewer: ReceiptViewer,
  language: Language,
) {
  const receipt = await getPaymentReceipt(deps, repaymentId, viewer);
  const context = contextOf(deps);
  const pdf = await renderReceiptPdf(paymentReceiptDocument(receipt, language, context), {
    createdAt: context.now,
  });
  return { filename: `receipt-${receipt.receiptNumber}.pdf`, pdf };
}

/** A payout's receipt as a PDF in the reader's language. */
export async function payoutReceiptPdf(
  deps: AppDeps,
  disbursementId: string,
  viewer: ReceiptViewer,
  language: Language,
) {
  const receipt = await getPayoutReceipt(deps, disbursementId, viewer);
  const context = contextOf(deps);
  const pdf = await renderReceiptPdf(payoutReceiptDocument(receipt, language, context), {
    createdAt: context.now,
  });
  return { filename: `receipt-${receipt.receiptNumber}.pdf`, pdf };
}
