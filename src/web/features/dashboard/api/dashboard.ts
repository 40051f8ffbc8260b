import { queryOptions } from '@tanstack/react-query';
import type { PortfolioSummary } from '../../../../domain/schemas/portfolio';
import type { DashboardSummary } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';

/** GET /api/staff/dashboard: the "Home Page Summary" figures, computed by the server. */
export const dashboardQuery = queryOptions({
  queryKey: backOfficeKeys.dashboard,
  queryFn: ({ signal }) => apiFetch<DashboardSummary>('/api/staff/dashboard', { signal }),
  staleTime: 30_000,
});

/**
 * GET /api/staff/dashboard/portfolio: the loan book figures (outstanding principal, collected this month,
 * overdue loans, PAR30), computed by SQL. Under the dashboard's key, so whatever refreshes the dashboard
 * refreshes these too.
 */
export const portfolioQuery = queryOptions({
  queryKey: [...backOfficeKeys.dashboard, 'portfolio'] as const,
  queryFn: ({ signal }) => apiFetch<PortfolioSummary>('/api/staff/dashboard/portfolio', { signal }),
  staleTime: 30_000,
});
