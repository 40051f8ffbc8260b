import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';

const amountRule = z.object({ min: z.number(), max: z.number(), step: z.number() });

/** Public product settings, so the borrower's calculator uses exactly the server's rate and fees. */
export function settingsRoutes(app: App, deps: AppDeps) {
  app.get(
    '/settings',
    {
      schema: {
        tags: ['system'],
        summary: 'Loan product, currency, time zone and support e-mail',
        response: {
          200: z.object({
            currency: z.string(),
            timeZone: z.string(),
            supportEmail: z.string(),
            loanProduct: z.object({
              currency: z.string(),
              borrowerAmount: amountRule,
              staffAmount: amountRule,
              termsMonths: z.array(z.number()),
              defaultTermMonths: z.number(),
              monthlyRateBp: z.number(),
              fees: z.object({ flatMinor: z.number(), percentBp: z.number() }),
              defaultCreditScore: z.number(),
            }),
          }),
        },
      },
    },
    async () => ({
      currency: deps.config.loanProduct.currency,
      timeZone: deps.config.timeZone,
      supportEmail: deps.config.supportEmail,
      loanProduct: { ...deps.config.loanProduct, termsMonths: [...deps.config.loanProduct.termsMonths] },
    }),
  );
}
