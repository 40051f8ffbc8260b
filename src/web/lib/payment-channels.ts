import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isBuiltInChannelName, type PaymentChannel } from '../../domain/schemas/settings';
import { useSettings } from './settings';

/**
 * A payment channel's name for the reader: in their language when it is one the app ships and the lender
 * kept its name ("Bank transfer" → "银行转账"), otherwise as the lender wrote it (PAYMENT_CHANNELS).
 */
export function channelLabel(channel: Pick<PaymentChannel, 'code' | 'name'>, t: TFunction): string {
  return isBuiltInChannelName(channel)
    ? t(`channels.${channel.code}`, { defaultValue: channel.name })
    : channel.name;
}

/** The name of the channel a record names by its code; the code itself if it is no longer configured. */
export function useChannelName(): (code: string) => string {
  const { t } = useTranslation();
  const channels = useSettings().data?.paymentChannels;
  return useCallback(
    (code: string) => {
      const channel = channels?.find((c) => c.code === code);
      return channel ? channelLabel(channel, t) : code;
    },
    [channels, t],
  );
}
