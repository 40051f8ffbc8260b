import { queryOptions } from '@tanstack/react-query';
import type { PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { apiFetch } from './api';

/**
 * The privacy notice in force (GET /api/privacy/notice, public): sign-up, re-consent and My Account. A module
 * of its own so that the start (app/start-data.ts, in main.js) can ask for it on /signup without the rest of
 * lib/privacy.ts.
 */
export const privacyNoticeQuery = queryOptions({
  queryKey: ['privacy-notice'] as const,
  queryFn: () => apiFetch<PrivacyNoticeResponse>('/api/privacy/notice'),
  staleTime: 5 * 60_000,
});
