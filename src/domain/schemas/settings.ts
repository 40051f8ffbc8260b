import * as z from 'zod/mini';

// zod/mini (functional checks) rather than classic zod: these schemas are on every borrower's first load
// (docs/decisions/023); the server reads them the same way through zod's core.
/** Optional operator text: trimmed, 1..max characters when given, null by default. */
const optionalText = (max: number) =>
  z._default(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(max))), null);

/**
 * Where borrowers send repayments, as the lender configures it (PAYMENT_CHANNELS). `code` is what a
 * repayment record names; `accountDetails` is null until the lender fills it in, and a channel without
 * details is never shown to borrowers as a way to pay (they are told to contact support instead).
 */
export const paymentChannelSchema = z.strictObject({
  code: z
    .string()
    .check(
      z.regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, { error: 'code must be 1–32 lowercase letters, digits, - or _' }),
    ),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  accountDetails: optionalText(300),
  /** The number alone, as a borrower pastes it into their app (tap to copy); none: they copy the details. */
  accountNumber: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(64)))),
  instructions: optionalText(500),
});
export type PaymentChannel = z.infer<typeof paymentChannelSchema>;

/**
 * The channels until the lender sets PAYMENT_CHANNELS (docs/decisions/037): finance records repayments on
 * them, and borrowers see them as EXAMPLES not to pay to (`isExampleChannel`), with details that look real
 * but reach nobody (all-zero numbers), so a lender sees what borrowers will see and the start-up log says
 * what to set.
 */
export const defaultPaymentChannels: readonly PaymentChannel[] = [
  {
    code: 'bank_transfer',
    name: 'Bank transfer',
    accountDetails: 'BDO Unibank · Account name: Sample Lending Corp. · Account no. 0000 0000 0000',
    accountNumber: '000000000000',
    instructions: 'InstaPay or PESONet from any bank or e-wallet app. Write your loan number in the notes.',
  },
  {
    code: 'gcash',
    name: 'GCash',
    accountDetails: 'GCash number 0900 000 0000 · Sample Lending Corp.',
    accountNumber: '09000000000',
    instructions: 'Send Money → Express Send. Write your loan number in the message.',
  },
  { code: 'cash', name: 'Cash at the office', accountDetails: null, instructions: null },
];

/**
 * Whether a channel still shows an example's account details or number: borrowers must not send money to
 * it, whatever else the lender changed.
 */
export function isExampleChannel(channel: Pick<PaymentChannel, 'accountDetails' | 'accountNumber'>): boolean {
  return defaultPaymentChannels.some(
    (example) =>
      (example.accountDetails !== null && example.accountDetails === channel.accountDetails) ||
      (example.accountNumber != null && example.accountNumber === channel.accountNumber),
  );
}

/**
 * A channel still named as shipped ("Bank transfer"), whose name the screens may write in the reader's
 * language; a name the lender gave is shown as the lender wrote it.
 */
export function isBuiltInChannelName(channel: Pick<PaymentChannel, 'code' | 'name'>): boolean {
  return defaultPaymentChannels.some((c) => c.code === channel.code && c.name === channel.name);
}

/**
 * GET /api/settings: what the web needs before any loan exists: the currency, the time zone for every
 * instant, support and regulator contacts, payment channels. Public: none of it is about a person.
 */
export const publicSettingsSchema = z.object({
  currency: z.string(),
  timeZone: z.string(),
  supportEmail: z.string(),
  /** How long the lender says a decision takes, in hours (APPLICATION_REVIEW_HOURS; issue #32). */
  applicationReviewHours: z.int(),
  /** Who to turn to when a complaint is not resolved (REGULATOR_CONTACT; issue #14). */
  regulatorContact: z.string(),
  /**
   * The credit score an approval starts from (SPEC §6). Loan terms are not settings: each product version has
   * its own (GET /api/products, GET /api/staff/products; docs/decisions/034).
   */
  defaultCreditScore: z.int(),
  paymentChannels: z.array(paymentChannelSchema),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

// In a zod-free module: the web's first load reads it while this schema loads only with the settings.
export { DEFAULT_TIME_ZONE } from '../default-time-zone';
