import { Alert, Anchor, Badge, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fromMinorToMajorString } from '../../../../domain/money';
import type { WalletPaymentChannelDto } from '../../../../domain/schemas/paying';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { SectionCard } from '../../../components/section-card';
import { useFormat } from '../../../lib/format';
import { channelLabel, useChannelName } from '../../../lib/payment-channels';
import { useSettings } from '../../../lib/settings';
import { CopyValue } from './copy-value';
import classes from './paying.module.css';
import { PaymentQr } from './payment-qr';
import walletClasses from './wallet.module.css';

type Repayment = NonNullable<WalletResponse['repayment']>;

/**
 * One way to pay: its account written out (the text alternative to the code), the number to copy, the
 * lender's instructions and the QR Ph code when there is one. An example (docs/decisions/037) is marked on
 * the card itself and has nothing to copy or scan.
 */
function ChannelCard(props: { channel: WalletPaymentChannelDto; reference: string; amountDueMinor: number }) {
  const { t } = useTranslation();
  const { channel } = props;
  const name = channelLabel(channel, t);
  return (
    <Paper
      withBorder={!channel.example}
      radius="md"
      p="sm"
      className={channel.example ? classes.example : undefined}
      data-testid={`channel-${channel.code}`}
      component="li"
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text fw={700} className={classes.wrap}>
            {name}
          </Text>
          {channel.example ? (
            <Badge color="red" variant="filled" style={{ flexShrink: 0 }}>
              {t('paying.exampleBadge')}
            </Badge>
          ) : null}
        </Group>
        {channel.example ? (
          <Text size="sm" fw={700} c="red.9">
            {t('paying.exampleChannel')}
          </Text>
        ) : null}
        <Text size="sm" className={classes.wrap} c={channel.example ? 'dimmed' : undefined}>
          {channel.accountDetails}
        </Text>
        {channel.example ? null : (
          <CopyValue
            label={channel.accountNumber ? t('paying.accountNumber') : t('paying.accountDetails')}
            value={channel.accountNumber ?? channel.accountDetails}
            testId={`copy-account-${channel.code}`}
          />
        )}
        {channel.instructions ? (
          <Text size="xs" c="dimmed" className={classes.wrap}>
            {channel.instructions}
          </Text>
        ) : null}
        {channel.qr && !channel.example ? (
          <PaymentQr
            channelCode={channel.code}
            channelName={name}
            qr={channel.qr}
            reference={props.reference}
            amountDueMinor={props.amountDueMinor}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Every payment received, newest first: amount, day, channel, reference, reversal and its receipt. */
function PaymentsReceived(props: { repayments: Repayment['repayments'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const channelName = useChannelName();
  return (
    <SectionCard titleId="payments-received-title" title={t('paying.payments.title')} titleMb="xs">
      {props.repayments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('paying.payments.empty')}
        </Text>
      ) : (
        <Stack
          gap={0}
          component="ul"
          className={walletClasses.list}
          aria-labelledby="payments-received-title"
        >
          {props.repayments.map((r) => {
            const amount = format.money(r.amountMinor);
            const date = format.calendarDate(r.receivedOn);
            return (
              <li key={r.id} className={walletClasses.listItem} data-testid="payment">
                <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Text fw={700} className={classes.money} td={r.reversed ? 'line-through' : undefined}>
                      {amount}
                    </Text>
                    <Text size="xs" c="dimmed" className={classes.wrap}>
                      {t('paying.payments.receivedOn', { date, channel: channelName(r.channel) })}
                    </Text>
                    <Text size="xs" className={classes.wrap}>
                      {t('paying.payments.reference', { reference: r.reference })}
                    </Text>
                  </Stack>
                  {r.reversed ? (
                    <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
                      {t('paying.payments.reversed')}
                    </Badge>
                  ) : null}
                </Group>
                {r.reversal ? (
                  <Text size="xs" c="red.9" mt={4} className={classes.wrap}>
                    {t('paying.payments.reversal', {
                      date: format.date(r.reversal.reversedAt),
                      reason: r.reversal.reason,
                    })}
                  </Text>
                ) : null}
                <Anchor
                  component={Link}
                  to={`/wallet/receipts/payments/${r.id}`}
                  size="sm"
                  mt={4}
                  display="inline-flex"
                >
                  <IconReceipt size={16} aria-hidden style={{ marginRight: 4 }} />
                  {t('paying.payments.receipt')}
                  <VisuallyHidden> {t('paying.payments.receiptFor', { amount, date })}</VisuallyHidden>
                </Anchor>
              </li>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}

/**
 * How to pay (issue #32): the amount to pay now and the loan number to quote, each to copy; every way to
 * pay with its account to copy and a QR Ph code where the lender set one up; examples said to be examples
 * so nobody pays to them. Then the payments received, each with its receipt. Nothing to pay on a closed
 * loan: only the payments.
 */
export function HowToPay(props: { repayment: Repayment }) {
  const { t } = useTranslation();
  const format = useFormat();
  const supportEmail = useSettings().data?.supportEmail ?? '';
  const { paymentChannels, paymentReference, repayments, position, closedAt } = props.repayment;
  const dueNow = position?.amountDueNowMinor ?? 0;
  const examples = paymentChannels.some((c) => c.example);
  const real = paymentChannels.some((c) => !c.example);
  return (
    <>
      {closedAt === null ? (
        <SectionCard titleId="how-to-pay-title" title={t('wallet.pay.title')} titleMb="sm">
          <Stack gap="sm">
            {examples ? (
              <Alert
                color="red"
                variant="filled"
                icon={<IconAlertTriangle size={20} aria-hidden />}
                title={t('paying.examplesTitle')}
                data-testid="example-channels"
              >
                {t('paying.examplesText', { email: supportEmail })}
              </Alert>
            ) : null}
            <Stack gap="xs" className={classes.referenceBox}>
              {dueNow > 0 ? (
                <CopyValue
                  label={t('paying.amountNow')}
                  value={format.money(dueNow)}
                  copyText={fromMinorToMajorString(dueNow)}
                  testId="copy-amount"
                />
              ) : null}
              <CopyValue
                label={t('paying.reference')}
                value={paymentReference}
                prominent
                testId="copy-reference"
              />
              <Text size="xs">{t('paying.referenceHint')}</Text>
            </Stack>
            {real || examples ? null : (
              <Text size="sm">
                {t('paying.contactSupport', { email: supportEmail, reference: paymentReference })}
              </Text>
            )}
            {paymentChannels.length > 0 ? (
              <Stack
                gap="sm"
                component="ul"
                className={walletClasses.list}
                aria-label={t('wallet.pay.title')}
              >
                {paymentChannels.map((channel) => (
                  <ChannelCard
                    key={channel.code}
                    channel={channel}
                    reference={paymentReference}
                    amountDueMinor={dueNow}
                  />
                ))}
              </Stack>
            ) : null}
          </Stack>
        </SectionCard>
      ) : null}
      <PaymentsReceived repayments={repayments} />
    </>
  );
}
