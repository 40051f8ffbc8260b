import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent, IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WalletResponse } from '../../../domain/schemas/wallet';
import { useFormat } from '../../lib/format';
import { type LoanNow, loanNow, type NamedInstalment } from '../../lib/loan-now';
import classes from './loan-now-card.module.css';
import { StatementDownload } from './statement-download';

type Repayment = NonNullable<WalletResponse['repayment']>;

/** Brings "How to pay" into view and moves focus there, for keyboards and screen readers too. */
function goToHowToPay() {
  const section = document.getElementById('how-to-pay-title');
  if (!section) return;
  section.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  section.setAttribute('tabindex', '-1');
  section.focus({ preventScroll: true });
}

function Line(props: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" component="li" align="flex-start">
      <Text size="sm" fw={props.strong ? 600 : 400} miw={0} style={{ overflowWrap: 'anywhere' }}>
        {props.label}
      </Text>
      <Text size="sm" fw={props.strong ? 700 : 500} className={classes.money}>
        {props.value}
      </Text>
    </Group>
  );
}

const tones = {
  overdue: { tone: 'red', icon: <IconAlertTriangle size={22} aria-hidden /> },
  due: { tone: 'orange', icon: <IconClockHour4 size={22} aria-hidden /> },
  upcoming: { tone: 'brand', icon: <IconCalendarEvent size={22} aria-hidden /> },
  owing: { tone: 'orange', icon: <IconClockHour4 size={22} aria-hidden /> },
  paidInFull: { tone: 'green', icon: <IconCircleCheck size={22} aria-hidden /> },
} as const satisfies Record<LoanNow['kind'], { tone: string; icon: ReactNode }>;

/**
 * The first thing on the wallet once money has been paid out (issue #32): where the loan stands today. One
 * amount to pay and what it covers while something is due or overdue (calm and factual, with how to pay);
 * the next payment and the one after it while nothing is due; "Paid in full on …" at the end. Money held for
 * the borrower (paid above the payoff) and what was sent back are said here too.
 */
export function LoanNowCard(props: {
  repayment: Repayment;
  position: NonNullable<Repayment['position']>;
  /** Where "How to pay" leads when the channels are on another page (the home): a link, not a scroll. */
  howToPayHref?: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { position, repayment } = props;
  const closedOn = repayment.paidInFullOn
    ? format.calendarDate(repayment.paidInFullOn)
    : repayment.closedAt
      ? format.date(repayment.closedAt)
      : null;
  const now = loanNow(position, closedOn);
  const { tone, icon } = tones[now.kind];
  const n = (key: string, options?: Record<string, unknown>) => t(`wallet.now.${key}`, options);
  const instalmentLine = (row: NamedInstalment) => (
    <Line
      key={row.number}
      label={n(row.overdue ? 'instalmentOverdue' : 'instalmentDue', {
        number: row.number,
        date: format.calendarDate(row.dueDate),
      })}
      value={format.money(row.unpaidMinor)}
    />
  );
  const howToPay = (variant: 'filled' | 'light') =>
    props.howToPayHref ? (
      <Button component={Link} to={props.howToPayHref} w="fit-content" color={tone} variant={variant}>
        {n('howToPay')}
      </Button>
    ) : (
      <Button onClick={goToHowToPay} w="fit-content" color={tone} variant={variant}>
        {n('howToPay')}
      </Button>
    );
  const then = (row: NamedInstalment | null) =>
    row ? (
      <Text size="sm" c="dimmed">
        {n('then', { amount: format.money(row.unpaidMinor), date: format.calendarDate(row.dueDate) })}
      </Text>
    ) : null;

  let title: string;
  let body: ReactNode;
  switch (now.kind) {
    case 'overdue':
    case 'due':
      title =
        now.kind === 'overdue'
          ? n('overdueTitle')
          : now.daysLate === 0
            ? n('dueTodayTitle')
            : n('dueTitle', { date: format.calendarDate(now.since) });
      body = (
        <>
          {now.kind === 'overdue' ? (
            <Text size="sm" fw={600} data-testid="days-late">
              {n('daysLate', { n: now.daysLate, date: format.calendarDate(now.since) })}
            </Text>
          ) : null}
          <div>
            <Text size="sm">{n('payToBeUpToDate')}</Text>
            <Text className={classes.amount} data-testid="due-now-amount">
              {format.money(now.amountMinor)}
            </Text>
          </div>
          <Stack gap={4} component="ul" className={classes.list} aria-label={n('covers')}>
            {now.instalments.map(instalmentLine)}
            {now.lateChargesMinor > 0 ? (
              <Line label={n('lateCharges')} value={format.money(now.lateChargesMinor)} />
            ) : null}
          </Stack>
          {now.kind === 'due' && now.payBy && position.lateChargeMonthlyBp > 0 ? (
            <Text size="sm">{n('payByToAvoidLate', { date: format.calendarDate(now.payBy) })}</Text>
          ) : null}
          {now.kind === 'overdue' ? <Text size="sm">{n('overdueHelp')}</Text> : null}
          {howToPay('filled')}
          {then(now.after)}
        </>
      );
      break;
    case 'upcoming':
      title = n('nextTitle', { date: format.calendarDate(now.next.dueDate) });
      body = (
        <>
          <div>
            <Text size="sm">
              {n('instalmentOf', { number: now.next.number, total: position.schedule.length })}
            </Text>
            <Text className={classes.amount} data-testid="next-payment-amount">
              {format.money(now.next.unpaidMinor)}
            </Text>
          </div>
          <Text size="sm">{n('nothingDue')}</Text>
          {howToPay('light')}
          {then(now.after)}
        </>
      );
      break;
    case 'owing':
      title = n('owingTitle');
      body = (
        <>
          <Text className={classes.amount}>{format.money(now.amountMinor)}</Text>
          {howToPay('filled')}
        </>
      );
      break;
    case 'paidInFull':
      title = now.on ? n('paidInFullOn', { date: now.on }) : n('paidInFull');
      body = (
        <>
          <Text size="sm">{n('paidInFullText')}</Text>
          <StatementDownload prominent />
        </>
      );
      break;
  }

  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="section"
      aria-labelledby="loan-now-title"
      className={classes.card}
      data-tone={tone}
      data-kind={now.kind}
      data-testid="loan-now"
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <span className={classes.icon}>{icon}</span>
          <Title order={2} size="h4" id="loan-now-title" className={classes.title}>
            {title}
          </Title>
        </Group>
        {body}
        {position.creditMinor > 0 ? (
          <Text size="sm" className={classes.note} data-testid="credit-held">
            {n('creditHeld', { amount: format.money(position.creditMinor) })}
          </Text>
        ) : null}
        {repayment.refunds.length > 0 ? (
          <Stack gap={2} component="ul" className={classes.list} aria-label={n('refundsTitle')}>
            {repayment.refunds.map((refund) => (
              <Text key={refund.reference} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                {n('refunded', {
                  amount: format.money(refund.amountMinor),
                  date: format.calendarDate(refund.refundedOn),
                  reference: refund.reference,
                })}
              </Text>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
