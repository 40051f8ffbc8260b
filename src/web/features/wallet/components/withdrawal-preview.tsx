import { Alert, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentPlanFiguresDto, WithdrawalPreviewResponse } from '../../../../domain/schemas/wallet';
import { LoadingLine } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';

export type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string; onRetry: (() => void) | null }
  | { kind: 'ready'; preview: WithdrawalPreviewResponse };

function Row(props: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed">
        {props.label}
      </Text>
      <Text size="sm" fw={600} ta="right" style={{ whiteSpace: 'nowrap' }} data-testid={props.testId}>
        {props.value}
      </Text>
    </Group>
  );
}

/** The first withdrawal: there is no plan yet, so the whole plan it starts. */
function FirstPlan(props: { preview: WithdrawalPreviewResponse }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { after, termMonths } = props.preview;
  const count = termMonths - (after.fromInstalment ?? 1) + 1;
  return (
    <Stack gap={6} maw={560}>
      <Row
        label={t('wallet.withdraw.preview.monthlyPayment')}
        value={format.money(after.monthlyPaymentMinor)}
        testId="preview-monthly"
      />
      <Row label={t('wallet.withdraw.preview.payments')} value={format.number(count)} />
      <Row
        label={t('wallet.withdraw.preview.firstDue')}
        value={format.calendarDate(after.fromDueDate)}
        testId="preview-from"
      />
      <Row
        label={t('wallet.withdraw.preview.totalRepay')}
        value={format.money(after.totalRepayableMinor)}
        testId="preview-total"
      />
      <Row
        label={t('wallet.withdraw.preview.totalInterest')}
        value={format.money(after.totalInterestMinor)}
      />
      <Row
        label={t('wallet.withdraw.preview.totalCost')}
        value={format.money(after.totalCostMinor)}
        testId="preview-cost"
      />
      <Row
        label={t('wallet.withdraw.preview.effectiveRate')}
        value={format.percent(after.effectiveAnnualRate)}
        testId="preview-eir"
      />
    </Stack>
  );
}

/** What reaches the borrower's account: the amount less the fee the loan takes from each payout. */
function Proceeds(props: { preview: WithdrawalPreviewResponse }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (props.preview.feeMinor === 0) return null;
  return (
    <Stack gap={6} maw={560}>
      <Row
        label={t('wallet.withdraw.preview.fee')}
        value={format.money(props.preview.feeMinor)}
        testId="preview-fee"
      />
      <Row
        label={t('wallet.withdraw.preview.receive')}
        value={format.money(props.preview.netMinor)}
        testId="preview-net"
      />
    </Stack>
  );
}

/** A later withdrawal: the plan now beside the plan after it (a table; on phones, two columns). */
function ChangedPlan(props: { before: PaymentPlanFiguresDto; after: PaymentPlanFiguresDto }) {
  const { t } = useTranslation();
  const format = useFormat();
  const wide = useMediaQuery('(min-width: 36em)');
  const rows: { key: string; label: string; value: (f: PaymentPlanFiguresDto) => string }[] = [
    {
      key: 'monthly',
      label: t('wallet.withdraw.preview.monthlyPayment'),
      value: (f) => format.money(f.monthlyPaymentMinor),
    },
    {
      key: 'from',
      label: t('wallet.withdraw.preview.fromDue'),
      value: (f) => format.calendarDate(f.fromDueDate),
    },
    {
      key: 'total',
      label: t('wallet.withdraw.preview.totalRepay'),
      value: (f) => format.money(f.totalRepayableMinor),
    },
    {
      key: 'cost',
      label: t('wallet.withdraw.preview.totalCost'),
      value: (f) => format.money(f.totalCostMinor),
    },
    {
      key: 'eir',
      label: t('wallet.withdraw.preview.effectiveRate'),
      value: (f) => format.percent(f.effectiveAnnualRate),
    },
  ];
  const now = t('wallet.withdraw.preview.now');
  const after = t('wallet.withdraw.preview.after');
  if (!wide) {
    // Phones: the two columns get the whole width; each figure's name sits above its pair of values.
    return (
      <Table verticalSpacing={2} horizontalSpacing={4} fz="sm" layout="fixed" withRowBorders={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{now}</Table.Th>
            <Table.Th>{after}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        {rows.map((row) => (
          <Table.Tbody key={row.key}>
            <Table.Tr>
              <Table.Th colSpan={2} scope="rowgroup" fw={400} c="dimmed" pt={8}>
                {row.label}
              </Table.Th>
            </Table.Tr>
            <Table.Tr>
              <Table.Td data-testid={`preview-${row.key}-now`}>{row.value(props.before)}</Table.Td>
              <Table.Td fw={700} data-testid={`preview-${row.key}`}>
                {row.value(props.after)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        ))}
      </Table>
    );
  }
  return (
    <Table verticalSpacing={6} horizontalSpacing={6} fz="sm" layout="fixed" withRowBorders>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="40%">
            <VisuallyHidden>{t('wallet.withdraw.preview.item')}</VisuallyHidden>
          </Table.Th>
          <Table.Th ta="right">{now}</Table.Th>
          <Table.Th ta="right">{after}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th scope="row" fw={400} c="dimmed">
              {row.label}
            </Table.Th>
            <Table.Td ta="right" data-testid={`preview-${row.key}-now`}>
              {row.value(props.before)}
            </Table.Td>
            <Table.Td ta="right" fw={700} data-testid={`preview-${row.key}`}>
              {row.value(props.after)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Re-disclosure before a withdrawal (issue #10): what it does to the borrower's payments, shown before a
 * code can be sent. The figures assume the money is paid out today; the note says so and what a later
 * payout changes. Once a code was sent (`bound`), it says the code is for these figures only.
 */
export function WithdrawalPreview(props: { state: PreviewState; bound: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { state } = props;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'xs', xs: 'sm' }}
      component="section"
      aria-labelledby="withdrawal-preview-title"
      aria-busy={state.kind === 'loading'}
      bg="var(--mantine-color-default-hover)"
    >
      <Stack gap="xs">
        <Title order={3} size="h5" id="withdrawal-preview-title">
          {t('wallet.withdraw.preview.title')}
        </Title>
        <div aria-live="polite">
          {state.kind === 'idle' ? (
            <Text size="sm" c="dimmed">
              {t('wallet.withdraw.preview.idle')}
            </Text>
          ) : null}
          {state.kind === 'loading' ? <LoadingLine text={t('wallet.withdraw.preview.loading')} /> : null}
          {state.kind === 'error' ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} p="xs">
              <Stack gap={6} align="flex-start">
                <Text size="sm">{state.message}</Text>
                {state.onRetry ? (
                  <Button size="xs" variant="default" onClick={state.onRetry}>
                    {t('common.retry')}
                  </Button>
                ) : null}
              </Stack>
            </Alert>
          ) : null}
          {state.kind === 'ready' ? (
            <Stack gap="xs">
              <Proceeds preview={state.preview} />
              {state.preview.before ? (
                <ChangedPlan before={state.preview.before} after={state.preview.after} />
              ) : (
                <FirstPlan preview={state.preview} />
              )}
              {state.preview.before && state.preview.inProcessingMinor > 0 ? (
                <Text size="xs" c="dimmed">
                  {t('wallet.withdraw.preview.inProcessing', {
                    amount: format.money(state.preview.inProcessingMinor),
                  })}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed">
                {t(
                  state.preview.before
                    ? 'wallet.withdraw.preview.estimateLater'
                    : 'wallet.withdraw.preview.estimateFirst',
                  { date: format.calendarDate(state.preview.payoutOn) },
                )}
              </Text>
              {props.bound ? (
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <IconInfoCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
                  <Text size="xs">{t('wallet.withdraw.preview.bound')}</Text>
                </Group>
              ) : null}
            </Stack>
          ) : null}
        </div>
      </Stack>
    </Paper>
  );
}
