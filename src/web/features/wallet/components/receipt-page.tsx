import '../../../lib/styles/all';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paidParts } from '../../../../domain/loan/repayments/allocation-parts';
import type { PaymentReceiptDto, PayoutReceiptDto } from '../../../../domain/schemas/paying';
import { LoadError, PageLoading } from '../../../components/load-state';
import { ApiError } from '../../../lib/api';
import { useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useChannelName } from '../../../lib/payment-channels';
import { type ReceiptKind, receiptPdfUrl, useReceipt } from '../api/receipts-api';
import classes from './paying.module.css';

function Facts(props: { rows: [string, string][]; testId?: string }) {
  return (
    <dl className={classes.facts} data-testid={props.testId}>
      {props.rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Facts under their own heading (what a payment paid, what a payout's amounts were). */
function FactsSection(props: { title: string; rows: [string, string][]; testId: string }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        {props.title}
      </Title>
      <Facts testId={props.testId} rows={props.rows} />
    </Stack>
  );
}

/** The receipt's amount under its label, its state beside it; a reversed amount is struck through. */
function Headline(props: {
  label: string;
  amount: string;
  struck?: boolean;
  state: string;
  stateColor: string;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
      <Stack gap={0} miw={0}>
        <Text size="sm" c="dimmed">
          {props.label}
        </Text>
        <Text
          fw={800}
          fz={28}
          className={classes.money}
          td={props.struck ? 'line-through' : undefined}
          data-testid="receipt-amount"
        >
          {props.amount}
        </Text>
      </Stack>
      <Badge color={props.stateColor} variant="light" size="lg" style={{ flexShrink: 0 }}>
        {props.state}
      </Badge>
    </Group>
  );
}

function PaymentReceipt({ receipt }: { receipt: PaymentReceiptDto }) {
  const { t } = useTranslation();
  const format = useFormat();
  const channelName = useChannelName();
  const a = receipt.allocation;
  const parts = a ? paidParts(a) : [];
  return (
    <>
      <Headline
        label={t('paying.receipt.amountReceived')}
        amount={format.money(receipt.amountMinor)}
        struck={Boolean(receipt.reversal)}
        state={receipt.reversal ? t('paying.receipt.reversed') : t('paying.receipt.received')}
        stateColor={receipt.reversal ? 'red' : 'green'}
      />
      {receipt.reversal ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={t('paying.receipt.reversedTitle')}
          data-testid="receipt-reversal"
        >
          {t('paying.receipt.reversedText', {
            date: format.date(receipt.reversal.reversedAt),
            reason: receipt.reversal.reason,
          })}
        </Alert>
      ) : null}
      <Facts
        rows={[
          [t('paying.receipt.loanNumber'), receipt.loanNumber],
          [t('paying.receipt.borrower'), receipt.borrowerName],
          [t('paying.receipt.receivedOn'), format.calendarDate(receipt.receivedOn)],
          [t('paying.receipt.channel'), channelName(receipt.channel)],
          [t('paying.receipt.reference'), receipt.reference],
          [t('paying.receipt.recordedAt'), format.dateTime(receipt.recordedAt)],
        ]}
      />
      {parts.length > 0 ? (
        <FactsSection
          title={t('paying.receipt.appliedTitle')}
          testId="receipt-allocation"
          rows={parts.map(([name, minor]) => [t(`paying.receipt.allocation.${name}`), format.money(minor)])}
        />
      ) : null}
    </>
  );
}

function PayoutReceipt({ receipt }: { receipt: PayoutReceiptDto }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <>
      <Headline
        label={t('paying.receipt.amountSent')}
        amount={format.money(receipt.netMinor)}
        state={t('paying.receipt.paid')}
        stateColor="green"
      />
      <Facts
        rows={[
          [t('paying.receipt.loanNumber'), receipt.loanNumber],
          [t('paying.receipt.borrower'), receipt.borrowerName],
          [t('paying.receipt.requestedAt'), format.dateTime(receipt.requestedAt)],
          [t('paying.receipt.paidAt'), format.dateTime(receipt.paidAt)],
          [
            t('paying.receipt.sentTo'),
            t('paying.receipt.account', { bank: receipt.bankName, last4: receipt.accountNumberLast4 }),
          ],
          [t('paying.receipt.transferReference'), receipt.reference],
        ]}
      />
      <FactsSection
        title={t('paying.receipt.amountsTitle')}
        testId="receipt-amounts"
        rows={[
          [t('paying.receipt.gross'), format.money(receipt.amountMinor)],
          [t('paying.receipt.fee'), format.money(receipt.feeMinor)],
          [t('paying.receipt.net'), format.money(receipt.netMinor)],
        ]}
      />
    </>
  );
}

/**
 * /wallet/receipts/payments/:id and /wallet/receipts/payouts/:id — the receipt of one of the borrower's
 * payments or payouts (issue #32), with its PDF. Another borrower's, or an unknown one, is "not found".
 */
export function ReceiptPage() {
  const { t } = useTranslation();
  const params = useParams();
  const kind: ReceiptKind | null =
    params.kind === 'payouts' || params.kind === 'payments' ? params.kind : null;
  const id = params.id ?? '';
  const receipt = useReceipt(kind, id);
  const back = (
    <Anchor
      component={Link}
      to="/wallet"
      size="sm"
      display="inline-flex"
      style={{ alignItems: 'center', gap: 4 }}
    >
      <IconArrowLeft size={16} aria-hidden />
      {t('paying.receipt.back')}
    </Anchor>
  );
  if (kind !== null && receipt.isPending) return <PageLoading />;
  if (kind === null || receipt.isError) {
    const notFound = kind === null || (receipt.error instanceof ApiError && receipt.error.status === 404);
    return (
      <Stack gap="md">
        {back}
        {notFound ? (
          <Alert color="red" variant="light" role="alert">
            {t('paying.receipt.notFound')}
          </Alert>
        ) : (
          <LoadError error={receipt.error} onRetry={() => void receipt.refetch()} />
        )}
      </Stack>
    );
  }
  const data = receipt.data;
  if (!data) return <PageLoading />;
  return (
    <Stack gap="md">
      {back}
      <Paper withBorder radius="lg" p="md" component="article" aria-labelledby="receipt-title" maw={640}>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={1} size="h3" id="receipt-title">
              {kind === 'payments' ? t('paying.receipt.paymentTitle') : t('paying.receipt.payoutTitle')}
            </Title>
            <Text size="sm" c="dimmed" className={classes.wrap} data-testid="receipt-number">
              {t('paying.receipt.number', { number: data.receiptNumber })}
            </Text>
          </Stack>
          {'repaymentId' in data ? <PaymentReceipt receipt={data} /> : <PayoutReceipt receipt={data} />}
          <Button
            component="a"
            href={receiptPdfUrl(kind, id, currentLanguage())}
            download
            leftSection={<IconDownload size={16} aria-hidden />}
            w="fit-content"
          >
            {t('paying.receipt.download')}
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
