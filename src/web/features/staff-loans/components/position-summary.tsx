import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoanPositionDto } from '../../../../domain/schemas/repayments';
import { useFormat } from '../../../lib/format';

function Figure(props: { label: string; value: ReactNode; note?: ReactNode; tone?: 'red' | 'green' }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="position-figure">
      <Text size="xs" c="dimmed" fw={500}>
        {props.label}
      </Text>
      <Text
        size="lg"
        fw={700}
        c={props.tone === 'red' ? 'red.7' : undefined}
        style={{ overflowWrap: 'anywhere' }}
      >
        {props.value}
      </Text>
      {props.note ? (
        <Text size="xs" c={props.tone === 'red' ? 'red.7' : 'dimmed'}>
          {props.note}
        </Text>
      ) : null}
    </Paper>
  );
}

/** What the loan owes today, derived by the server from the payouts and repayments. */
export function PositionSummary({ position, closed }: { position: LoanPositionDto; closed: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const p = (key: string, options?: Record<string, unknown>) => t(`staffLoans.position.${key}`, options);
  const overdue = position.overdueMinor > 0 || position.daysPastDue > 0;
  return (
    <Stack gap="xs" component="section" aria-labelledby="position-title">
      <div>
        <Title order={2} size="h4" id="position-title">
          {p('title')}
        </Title>
        <Text size="xs" c="dimmed">
          {p('asOf', { date: fmt.calendarDate(position.asOf) })} ·{' '}
          {p('graceNote', { days: position.graceDays })}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm">
        <Figure label={p('paidOut')} value={fmt.money(position.principalPaidOutMinor)} />
        <Figure
          label={p('outstandingPrincipal')}
          value={fmt.money(position.outstandingPrincipalMinor)}
          note={
            position.paidAheadMinor > 0
              ? p('paidAhead', { amount: fmt.money(position.paidAheadMinor) })
              : null
          }
        />
        <Figure label={p('interestAccrued')} value={fmt.money(position.interestAccruedMinor)} />
        <Figure
          label={p('lateCharges')}
          value={fmt.money(position.lateChargesDueMinor)}
          tone={position.lateChargesDueMinor > 0 ? 'red' : undefined}
        />
        <Figure
          label={p('payoff')}
          value={fmt.money(position.payoffMinor)}
          note={closed ? p('paidInFull') : null}
        />
        <Figure
          label={p('nextPayment')}
          value={position.nextPayment ? fmt.money(position.nextPayment.amountMinor) : p('noNextPayment')}
          note={
            position.nextPayment
              ? p('nextPaymentDue', { date: fmt.calendarDate(position.nextPayment.dueDate) })
              : null
          }
        />
        <Figure
          label={p('dueNow')}
          value={fmt.money(position.amountDueNowMinor)}
          tone={position.amountDueNowMinor > 0 && overdue ? 'red' : undefined}
          note={position.amountDueNowMinor > 0 ? p('dueNowNote') : null}
        />
        <Figure
          label={p('overdue')}
          value={fmt.money(position.overdueMinor)}
          tone={overdue ? 'red' : undefined}
          note={overdue ? p('daysPastDue', { n: position.daysPastDue }) : p('notOverdue')}
        />
        {position.creditMinor > 0 || position.refundedMinor > 0 ? (
          <Figure
            label={p('credit')}
            value={fmt.money(position.creditMinor)}
            tone={position.creditMinor > 0 ? 'red' : 'green'}
            note={
              position.refundedMinor > 0
                ? p('refunded', { amount: fmt.money(position.refundedMinor) })
                : p('creditToRefund')
            }
          />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}
