import { z } from 'zod';
import { type QrPhAccount, QrPhError, qrPhTemplate } from '../payments/qr-ph';
import { type PaymentChannel, paymentChannelSchema } from './settings';

/** The largest amount a code may carry, in whole pesos (default: InstaPay's ₱50,000 a transfer). */
const maxAmount = z.number().int().min(1).max(100_000_000).optional();
const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

/** The static QR Ph code the lender's bank or e-wallet issued, as text (any QR reader app shows it). */
const payloadForm = z.strictObject({ payload: z.string().trim().min(1).max(512), maxAmount });

const fieldsForm = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('p2p'),
      bic: z.string().trim(),
      accountNumber: z.string().trim(),
      mobileNumber: optionalText(20),
      merchantName: z.string().trim(),
      merchantCity: z.string().trim(),
      postalCode: optionalText(10),
      merchantCategoryCode: optionalText(4),
      maxAmount,
    }),
    z.strictObject({
      type: z.literal('p2m'),
      bic: z.string().trim(),
      merchantId: z.string().trim(),
      merchantName: z.string().trim(),
      merchantCity: z.string().trim(),
      postalCode: optionalText(10),
      merchantCategoryCode: z.string().trim(),
      maxAmount,
    }),
  ],
  { error: 'type must be "p2p" (an account at a bank or e-wallet) or "p2m" (a merchant account)' },
);

export type QrPhConfig = QrPhAccount & { maxAmount?: number | undefined };

/**
 * A channel's QR Ph account (docs/decisions/037): `{ "payload": "<the text of your static QR Ph code>" }`
 * (recommended: every field your bank or e-wallet put in it is kept) or the fields themselves. Checked at
 * start by building a code from it, so a mistake stops the server with the field to fix.
 */
export const qrPhConfigSchema = z.unknown().transform((value, ctx): QrPhConfig => {
  const form = typeof value === 'object' && value !== null && 'payload' in value ? payloadForm : fieldsForm;
  const parsed = form.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }
    return z.NEVER;
  }
  try {
    qrPhTemplate(parsed.data);
  } catch (error) {
    if (!(error instanceof QrPhError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * A channel as the lender configures it (PAYMENT_CHANNELS): what borrowers read and copy, and optionally
 * a QR Ph account to show a code they can scan.
 */
export const paymentChannelConfigSchema = z
  .strictObject({ ...paymentChannelSchema.shape, qrPh: qrPhConfigSchema.optional() })
  .superRefine((channel, ctx) => {
    if (channel.qrPh && !channel.accountDetails) {
      ctx.addIssue({
        code: 'custom',
        path: ['accountDetails'],
        message:
          'is required with qrPh: the account written out, for borrowers who cannot scan the code (and screen readers)',
      });
    }
  });

export type PaymentChannelConfig = PaymentChannel & { qrPh?: QrPhConfig | undefined };
