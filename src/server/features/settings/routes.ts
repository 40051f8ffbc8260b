import { publicSettingsSchema } from '../../../domain/schemas/settings';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';

/** Public product settings, so the borrower's calculator uses exactly the server's rate and fees. */
export function settingsRoutes(app: App, deps: AppDeps) {
  app.get(
    '/settings',
    {
      schema: {
        tags: ['system'],
        summary: 'Loan product, repayment rules, payment channels, currency, time zone and support e-mail',
        response: {
          200: publicSettingsSchema,
        },
      },
    },
    async () => ({
      currency: deps.config.loanProduct.currency,
      timeZone: deps.config.timeZone,
      supportEmail: deps.config.supportEmail,
      regulatorContact: deps.config.regulatorContact,
      loanProduct: { ...deps.config.loanProduct, termsMonths: [...deps.config.loanProduct.termsMonths] },
      repayments: { ...deps.config.repaymentRules },
      paymentChannels: deps.config.paymentChannels,
    }),
  );
}
