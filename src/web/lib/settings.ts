import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TIME_ZONE, type PublicSettings, publicSettingsSchema } from '../../domain/schemas/settings';
import { ApiError, apiFetch } from './api';

async function fetchSettings(): Promise<PublicSettings> {
  const parsed = publicSettingsSchema.safeParse(await apiFetch<unknown>('/api/settings'));
  if (!parsed.success) {
    throw new ApiError({
      code: 'BAD_RESPONSE',
      message: 'The settings are not what the app expects.',
      status: 200,
    });
  }
  return parsed.data;
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
