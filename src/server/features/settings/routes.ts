import { publicSettingsSchema } from '../../../domain/schemas/settings';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';

/** Public settings: currency, time zone, contacts, payment channels (loan terms are each product's). */
export function settingsRoutes(app: App, deps: AppDeps) {
  app.get(
    '/settings',
    {
      schema: {
        tags: ['system'],
        summary:
          'Currency, time zone, support and regulator contacts, default credit score and payment channels',
        response: {
          200: publicSettingsSchema,
        },
      },
    },
    async () => ({
      currency: deps.config.loanProduct.currency,
      timeZone: deps.config.timeZone,
      supportEmail: deps.config.supportEmail,
      applicationReviewHours: deps.config.applicationReviewHours,
      regulatorContact: deps.config.regulatorContact,
      defaultCreditScore: deps.config.loanProduct.defaultCreditScore,
      // What a screen names a channel by; its QR Ph account stays on the server (the wallet shows the code).
      paymentChannels: deps.config.paymentChannels.map((c) => ({
        code: c.code,
        name: c.name,
        accountDetails: c.accountDetails,
        accountNumber: c.accountNumber ?? null,
        instructions: c.instructions,
      })),
    }),
  );
}
