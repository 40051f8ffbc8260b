import { portfolioSummary } from '../../../domain/schemas/portfolio';
import { dashboardSummary } from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { getDashboardSummary } from './get-dashboard-summary';
import { getPortfolioSummary } from './get-portfolio-summary';

/**
 * The summary aggregates over every application and borrower, so concurrent requests share one reading and
 * later ones reuse it for a moment, until anything it reads changes (docs/decisions/030). Every figure
 * still comes from the database. Both answers are keyed by the day they are for.
 */
export function dashboardRoutes(app: App, deps: AppDeps) {
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
    () =>
      deps.answerCache.get(
        `dashboard ${today(deps)}`,
        ['application_quarters', 'applications', 'complaints', 'dashboard_figures', 'disbursements', 'users'],
        () => getDashboardSummary(deps),
      ),
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
      return deps.answerCache.get(
        `portfolio ${asOf}`,
        ['applications', 'dashboard_figures', 'disbursements'],
        () => getPortfolioSummary(deps, asOf),
      );
    },
  );
}
