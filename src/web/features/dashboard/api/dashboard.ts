import { queryOptions } from '@tanstack/react-query';
import type { DashboardSummary } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';

/** GET /api/staff/dashboard: the "Home Page Summary" figures, computed by the server. */
export const dashboardQuery = queryOptions({
  queryKey: backOfficeKeys.dashboard,
  queryFn: ({ signal }) => apiFetch<DashboardSummary>('/api/staff/dashboard', { signal }),
  staleTime: 30_000,
});
