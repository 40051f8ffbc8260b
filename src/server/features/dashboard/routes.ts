import { dashboardSummary } from '../../../domain/schemas/staff';
import { requireStaff } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { getDashboardSummary } from './get-dashboard-summary';

export function dashboardRoutes(app: App, deps: AppDeps) {
  app.get(
    '/staff/dashboard',
    {
      preValidation: requireStaff(),
      schema: {
        tags: ['back office'],
        summary: 'Home Page Summary figures',
        response: { 200: dashboardSummary, ...errorResponses },
      },
    },
    () => getDashboardSummary(deps),
  );
}
