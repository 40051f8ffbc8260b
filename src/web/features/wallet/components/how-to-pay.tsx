import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { useFormat } from '../../../lib/format';
import { channelLabel } from '../../../lib/payment-channels';
import { useSettings } from '../../../lib/settings';
import classes from './wallet.module.css';

/**
 * Where to send repayments, with the loan number to quote, and the payments received so far. Only channels
 * the lender configured with real account details are shown; without any the borrower asks support.
 */
export function HowToPay(props: { repayment: NonNullable<WalletResponse['repayment']> }) {
  const { t } = useTranslation();
  const format = useFormat();
  const supportEmail = useSettings().data?.supportEmail ?? '';
  const { paymentChannels, paymentReference, repayments } = props.repayment;
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="how-to-pay-title">
      <Title order={2} size="h4" id="how-to-pay-title" mb="xs">
        {t('wallet.pay.title')}
      </Title>
      {paymentChannels.length === 0 ? (
        <Text size="sm">
          {t('wallet.pay.contactSupport', { email: supportEmail, reference: paymentReference })}
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            {t('wallet.pay.reference', { reference: paymentReference })}
          </Text>
          {paymentChannels.map((channel) => (
            <div key={channel.code}>
              <Text size="sm" fw={600}>
                {channelLabel(channel, t)}
              </Text>
              <Text size="sm">{channel.accountDetails}</Text>
              {channel.instructions ? (
                <Text size="xs" c="dimmed">
                  {channel.instructions}
                </Text>
              ) : null}
            </div>
          ))}
        </Stack>
      )}
      <Title order={3} size="h5" mt="md" mb="xs">
        {t('wallet.pay.paymentsTitle')}
      </Title>
      {repayments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('wallet.pay.paymentsEmpty')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" className={classes.list}>
          {repayments.map((r) => (
            <Group key={r.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
              <Text
                size="sm"
                className={classes.money}
                td={r.reversed ? 'line-through' : undefined}
                // A long bank reference must wrap on a phone, not push the page sideways.
                style={{ overflowWrap: 'anywhere', minWidth: 0 }}
              >
                {t('wallet.pay.payment', {
                  amount: format.money(r.amountMinor),
                  date: format.calendarDate(r.receivedOn),
                  reference: r.reference,
                })}
              </Text>
              {r.reversed ? (
                <Badge color="red" variant="light" size="sm">
                  {t('wallet.pay.reversed')}
                </Badge>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
