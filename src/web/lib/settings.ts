import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TIME_ZONE } from '../../domain/default-time-zone';
import type { PublicSettings } from '../../domain/schemas/settings';
import { ApiError, apiFetch } from './api';

async function fetchSettings(): Promise<PublicSettings> {
  // The schema comes with the answer, not with main.js: zod is then off the first load of the sign-in pages,
  // which never ask for the settings (issue #35). Step 1's own chunks need zod anyway.
  const [{ publicSettingsSchema }, body] = await Promise.all([
    import('../../domain/schemas/settings'),
    apiFetch<unknown>('/api/settings'),
  ]);
  const parsed = publicSettingsSchema.safeParse(body);
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
