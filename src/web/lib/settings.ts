import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TIME_ZONE } from '../../domain/default-time-zone';
import type { PublicSettings } from '../../domain/schemas/settings';
import { apiFetch } from './api';

/**
 * Read as the server sends it, like the app's other answers: the server passes every 200 answer through the
 * route's schema (`publicSettingsSchema`, fastify-type-provider-zod's serializer), so a wrong one never
 * leaves it. No zod here, and none on the first load of step 1, which waits for the settings (docs/decisions/052).
 */
function fetchSettings(): Promise<PublicSettings> {
  return apiFetch<PublicSettings>('/api/settings');
}

/** The lender's configuration (GET /api/settings): fetched once per page load and kept. */
export const settingsQuery = queryOptions({
  queryKey: ['settings'] as const,
  queryFn: fetchSettings,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

export function useSettings() {
  return useQuery(settingsQuery);
}

/** The configured time zone if the settings have arrived, else the SPEC default (outside React). */
export function timeZoneKnownTo(queryClient: QueryClient): string {
  return queryClient.getQueryData(settingsQuery.queryKey)?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The configured time zone for showing instants; the SPEC default until the settings have arrived. */
export function useTimeZone(): string {
  return useSettings().data?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The credit score an approval starts from (GET /api/settings); undefined until it has arrived. */
export function useDefaultCreditScore(): number | undefined {
  return useSettings().data?.defaultCreditScore;
}
