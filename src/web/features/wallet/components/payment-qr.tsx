import { Button, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { WalletPaymentChannelDto } from '../../../../domain/schemas/paying';
import { useFormat } from '../../../lib/format';
import classes from './paying.module.css';

type Qr = NonNullable<WalletPaymentChannelDto['qr']>;

/**
 * A channel's QR Ph code (drawn by the server from the wallet's payload): what apps can scan it, whether
 * the amount is in it, and the picture to save for "Upload QR" when paying from the same phone. The
 * account details stay beside it as the text alternative.
 */
export function PaymentQr(props: {
  channelCode: string;
  channelName: string;
  qr: Qr;
  reference: string;
  amountDueMinor: number;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { qr } = props;
  // The code's CRC changes with its content: a new amount is a new picture, never an older cached one.
  const version = qr.payload.slice(-4);
  const base = `/api/wallet/payment-qr/${encodeURIComponent(props.channelCode)}`;
  const amount = qr.amountMinor === null ? null : format.money(qr.amountMinor);
  const overLimit = qr.amountMinor === null && props.amountDueMinor > qr.maxAmountMinor;
  return (
    <Stack gap={6} align="center" ta="center" data-testid={`qr-${props.channelCode}`}>
      <Text size="sm" fw={700}>
        {t('paying.qr.title')}
      </Text>
      <img
        src={`${base}?format=svg&v=${version}`}
        className={classes.qrImage}
        width={220}
        height={220}
        alt={
          amount
            ? t('paying.qr.altAmount', { amount, channel: props.channelName, reference: props.reference })
            : t('paying.qr.alt', { channel: props.channelName, reference: props.reference })
        }
      />
      <Text size="sm">{t('paying.qr.apps')}</Text>
      <Text size="xs" c="dimmed">
        {amount ? t('paying.qr.filledIn', { amount }) : t('paying.qr.typeAmount')}
      </Text>
      {overLimit ? (
        <Text size="xs" c="orange.9">
          {t('paying.qr.overLimit', {
            amount: format.money(props.amountDueMinor),
            max: format.money(qr.maxAmountMinor),
          })}
        </Text>
      ) : null}
      <Button
        component="a"
        href={`${base}?format=png&v=${version}`}
        download
        variant="subtle"
        size="xs"
        leftSection={<IconDownload size={14} aria-hidden />}
      >
        {t('paying.qr.save')}
      </Button>
      <Text size="xs" c="dimmed">
        {t('paying.qr.saveHint')}
      </Text>
    </Stack>
  );
}
