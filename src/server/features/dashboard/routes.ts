import { type PortfolioSummary, portfolioSummary } from '../../../domain/schemas/portfolio';
import { type DashboardSummary, dashboardSummary } from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { getDashboardSummary } from './get-dashboard-summary';
import { getPortfolioSummary } from './get-portfolio-summary';

/**
 * The summary aggregates over every application and borrower, so it is computed at most once at a time
 * per instance (concurrent requests share the result) and reused for a few seconds, or until an
 * application, payout or repayment changes. Every figure still comes from the database. The portfolio
 * figures are reused the same way, and only for the day they were computed for.
 */
const REUSE_MS = 5_000;

/** One shared, short-lived result per key; a failure is not kept. */
function reuse<T>() {
  let cached: { at: number; key: string; value: Promise<T> } | null = null;
  return {
    clear: () => {
      cached = null;
    },
    get: (key: string, compute: () => Promise<T>) => {
      if (!cached || cached.key !== key || Date.now() - cached.at > REUSE_MS) {
        const value = compute();
        cached = { at: Date.now(), key, value };
        value.catch(() => {
          if (cached?.value === value) cached = null;
        });
      }
      return cached.value;
    },
  };
}

export function dashboardRoutes(app: App, deps: AppDeps) {
  const summary = reuse<DashboardSummary>();
  const portfolio = reuse<PortfolioSummary>();
  const unsubscribe = deps.events.subscribe(() => {
    summary.clear();
    portfolio.clear();
  });
  app.addHook('onClose', async () => unsubscribe());

  app.get(
    '/staff/dashboard',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'Home Page Summary figures',
        response: { 200: dashboardSummary, ...errorResponses },
      },
    },
    () => summary.get('', () => getDashboardSummary(deps)),
  );

  app.get(
    '/staff/dashboard/portfolio',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary:
          'Portfolio figures: outstanding principal, collected this month, overdue loans (past grace), PAR30',
        response: { 200: portfolioSummary, ...errorResponses },
      },
    },
    () => {
      const asOf = today(deps);
      return portfolio.get(asOf, () => getPortfolioSummary(deps, asOf));
    },
  );
}
