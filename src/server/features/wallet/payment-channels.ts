import { toMinor } from '../../../domain/money';
import { INSTAPAY_LIMIT_MINOR, paymentQr } from '../../../domain/payments/qr-ph';
import type { WalletPaymentChannelDto } from '../../../domain/schemas/paying';
import type { PaymentChannelConfig } from '../../../domain/schemas/payment-channels';
import { isExampleChannel } from '../../../domain/schemas/settings';

/**
 * The ways to pay a borrower is shown (issue #32): every channel with account details, examples flagged
 * (docs/decisions/037), and for a channel with a QR Ph account a code carrying the loan number and the
 * amount due now. An example never gets a code: nothing a borrower could scan and pay.
 */
export function walletPaymentChannels(
  channels: readonly PaymentChannelConfig[],
  loan: { reference: string; amountDueMinor: number },
): WalletPaymentChannelDto[] {
  return channels.flatMap((channel) => {
    if (channel.accountDetails === null) return [];
    const example = isExampleChannel(channel);
    const maxAmountMinor =
      channel.qrPh?.maxAmount !== undefined ? toMinor(channel.qrPh.maxAmount) : INSTAPAY_LIMIT_MINOR;
    return [
      {
        code: channel.code,
        name: channel.name,
        accountDetails: channel.accountDetails,
        accountNumber: channel.accountNumber ?? null,
        instructions: channel.instructions,
        example,
        qr:
          channel.qrPh && !example
            ? {
                ...paymentQr(channel.qrPh, {
                  reference: loan.reference,
                  amountDueMinor: loan.amountDueMinor,
                  maxAmountMinor,
                }),
                maxAmountMinor,
              }
            : null,
      },
    ];
  });
}
