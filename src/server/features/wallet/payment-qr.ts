import { AppError } from '../../../domain/errors';
import { wasApproved } from '../../../domain/loan/status';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanPosition } from '../../loans/loan-position';
import { walletPaymentChannels } from './payment-channels';

export interface PaymentQrImage {
  contentType: string;
  body: string | Buffer;
  /** For the PNG: the name it is saved under. */
  filename: string | null;
}

/**
 * The QR Ph code of one channel for the borrower's loan (their latest, as the wallet shows it), drawn by
 * `qrcode` (no canvas): SVG for the screen, PNG to save to the phone's gallery, since an app on the same
 * phone cannot scan its own screen but can upload a picture ("Upload QR" in GCash and Maya). The same code
 * as the wallet's `qr.payload`, built again from the position now. Not found: no paid-out loan, or no code
 * for that channel (none set up, or an example).
 */
export async function paymentQrImage(
  deps: AppDeps,
  borrowerId: string,
  channelCode: string,
  format: 'svg' | 'png',
): Promise<PaymentQrImage> {
  const loan = await deps.db
    .selectFrom('applications')
    .select(['id', 'loan_number', 'status', 'approved_amount', 'term_months', 'terms'])
    .where('borrower_id', '=', borrowerId)
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!loan || !wasApproved(loan.status) || loan.approved_amount === null) throw new AppError('NOT_FOUND');
  const { position } = await loanPosition(deps.db, loan, deps, today(deps));
  if (position.startDate === null) throw new AppError('NOT_FOUND');
  const channel = walletPaymentChannels(deps.config.paymentChannels, {
    reference: loan.loan_number,
    amountDueMinor: position.amountDueNowMinor,
  }).find((c) => c.code === channelCode);
  if (!channel?.qr) throw new AppError('NOT_FOUND');
  // Level M (15 % of the code may be lost) and a quiet zone: what payment apps read from a photo too.
  const options = { errorCorrectionLevel: 'M', margin: 4 } as const;
  // Loaded here, not at start-up (issue #35).
  const { default: QRCode } = await import('qrcode');
  if (format === 'png') {
    return {
      contentType: 'image/png',
      body: await QRCode.toBuffer(channel.qr.payload, { ...options, type: 'png', width: 640 }),
      filename: `qrph-${loan.loan_number}-${channel.code}.png`,
    };
  }
  return {
    contentType: 'image/svg+xml; charset=utf-8',
    body: await QRCode.toString(channel.qr.payload, { ...options, type: 'svg' }),
    filename: null,
  };
}
