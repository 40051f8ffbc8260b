import { useCallback } from 'react';
import { useSettings } from '../../../lib/settings';

/** A payment channel's configured name ("GCash") for its code; the code itself if it is no longer configured. */
export function useChannelName(): (code: string) => string {
  const channels = useSettings().data?.paymentChannels;
  return useCallback(
    (code: string) => channels?.find((channel) => channel.code === code)?.name ?? code,
    [channels],
  );
}
