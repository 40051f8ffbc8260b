import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';

/** SPEC §6: the live push is backed by a poll every 30 s while the stream is down. */
export const PENDING_POLL_MS = 30_000;
export const STAFF_EVENTS_URL = '/api/staff/events';

interface PendingCount {
  count: number;
}

function parseCount(data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    const value = (JSON.parse(data) as { count?: unknown }).count;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
  } catch {
    return null;
  }
}

/**
 * The live number of pending applications for the sidebar badge. Server-sent events (`event: pending`)
 * bring it on connect and on every submission or decision; while the stream is down (error, or no
 * EventSource at all) GET /api/staff/pending-count is polled every 30 s. Whenever the number changes,
 * the pending and approved lists and the dashboard are re-read.
 */
export function usePendingCount(): number | undefined {
  const queryClient = useQueryClient();
  const [streaming, setStreaming] = useState(false);
  const last = useRef<number | undefined>(undefined);

  const query = useQuery({
    queryKey: backOfficeKeys.pendingCount,
    queryFn: ({ signal }) => apiFetch<PendingCount>('/api/staff/pending-count', { signal }),
    // While the stream answers, it is the source; the poll only covers for it.
    enabled: !streaming,
    refetchInterval: streaming ? false : PENDING_POLL_MS,
    refetchIntervalInBackground: true,
  });
  const count = query.data?.count;

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(STAFF_EVENTS_URL);
    const onPending = (event: MessageEvent) => {
      const next = parseCount(event.data);
      if (next === null) return;
      setStreaming(true);
      // A poll still on its way would bring an older number: the pushed one wins.
      void queryClient.cancelQueries({ queryKey: backOfficeKeys.pendingCount });
      queryClient.setQueryData<PendingCount>(backOfficeKeys.pendingCount, { count: next });
    };
    // The browser reconnects by itself (retry: 5 s); until then, and if it gives up, the poll runs.
    const onError = () => setStreaming(false);
    source.addEventListener('pending', onPending as EventListener);
    source.addEventListener('error', onError);
    return () => {
      source.removeEventListener('pending', onPending as EventListener);
      source.removeEventListener('error', onError);
      source.close();
    };
  }, [queryClient]);

  useEffect(() => {
    if (count === undefined) return;
    const previous = last.current;
    last.current = count;
    if (previous !== undefined && previous !== count) {
      void queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('pending') });
      void queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('approved') });
      void queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard });
    }
  }, [count, queryClient]);

  return count;
}
