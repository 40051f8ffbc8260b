import { type DashboardSummary, dashboardSummary } from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { getDashboardSummary } from './get-dashboard-summary';

/**
 * The summary aggregates over every application and borrower, so it is computed at most once at a time
 * per instance (concurrent requests share the result) and reused for a few seconds, or until an
 * application or payout changes. Every figure still comes from the database.
 */
const REUSE_MS = 5_000;

export function dashboardRoutes(app: App, deps: AppDeps) {
  let cached: { at: number; value: Promise<DashboardSummary> } | null = null;
  const unsubscribe = deps.events.subscribe(() => {
    cached = null;
  });
  app.addHook('onClose', async () => unsubscribe());
  const summary = () => {
    if (!cached || Date.now() - cached.at > REUSE_MS) {
      const value = getDashboardSummary(deps);
      cached = { at: Date.now(), value };
      value.catch(() => {
        cached = null;
      });
    }
    return cached.value;
  };

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
    () => summary(),
  );
}
