import type { Language } from '../../../domain/languages';
import type { AppDeps } from '../../deps';
import { getPaymentReceipt, getPayoutReceipt, type ReceiptViewer } from './get-receipt';
import { paymentReceiptDocument, payoutReceiptDocument, type ReceiptDocument } from './receipt-text';

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

/** A receipt as a PDF, `write` giving its document for the issuing context. */
async function receiptPdf(
  deps: AppDeps,
  receiptNumber: string,
  write: (context: ReturnType<typeof contextOf>) => ReceiptDocument,
) {
  const context = contextOf(deps);
  const pdf = await renderReceiptPdf(write(context), { createdAt: context.now });
  return { filename: `receipt-${receiptNumber}.pdf`, pdf };
}

/** A payment's receipt as a PDF in the reader's language. */
export async function paymentReceiptPdf(
  deps: AppDeps,
  repaymentId: string,
  viewer: ReceiptViewer,
  language: Language,
) {
  const receipt = await getPaymentReceipt(deps, repaymentId, viewer);
  return receiptPdf(deps, receipt.receiptNumber, (context) =>
    paymentReceiptDocument(receipt, language, context),
  );
}

/** A payout's receipt as a PDF in the reader's language. */
export async function payoutReceiptPdf(
  deps: AppDeps,
  disbursementId: string,
  viewer: ReceiptViewer,
  language: Language,
) {
  const receipt = await getPayoutReceipt(deps, disbursementId, viewer);
  return receiptPdf(deps, receipt.receiptNumber, (context) =>
    payoutReceiptDocument(receipt, language, context),
  );
}
