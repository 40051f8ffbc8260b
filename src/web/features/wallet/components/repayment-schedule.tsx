import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { sumMinor } from '../../../../domain/money';
import type { InstalmentPositionDto } from '../../../../domain/schemas/repayments';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { StatementDownload } from '../../../components/loan/statement-download';
import { SectionCard } from '../../../components/section-card';
import { useFormat } from '../../../lib/format';
import classes from './wallet.module.css';

type InstalmentState = InstalmentPositionDto['status'];

type Instalment = WalletResponse['schedule'][number] & {
  status?: InstalmentState;
  daysPastDue?: number;
  settledEarlyOn?: string | null;
};
type Repayment = WalletResponse['repayment'];

const stateColors: Record<InstalmentState, string> = {
  paid: 'green',
  part_paid: 'blue',
  due: 'orange',
  overdue: 'red',
  upcoming: 'gray',
};

function StateBadge(props: { row: Instalment }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { status, settledEarlyOn, paymentMinor } = props.row;
  if (!status) return null;
  // Paid before its due date: when. An instalment the payoff made unnecessary says so, not "Paid ₱0.00".
  const label =
    status === 'paid' && settledEarlyOn
      ? t(paymentMinor === 0 ? 'wallet.schedule.states.settled' : 'wallet.schedule.states.paidEarly', {
          date: format.calendarDate(settledEarlyOn),
        })
      : t(`wallet.schedule.states.${status}`, { n: props.row.daysPastDue ?? 0 });
  return (
    <Badge
      color={stateColors[status]}
      variant="light"
      size="sm"
      // Darker text than Mantine's light badge: it must read on a striped table row too (WCAG AA).
      style={{
        flexShrink: 0,
        color: `light-dark(var(--mantine-color-${stateColors[status]}-9), var(--mantine-color-${stateColors[status]}-2))`,
      }}
      styles={{ label: { textTransform: 'none', whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
      h="auto"
    >
      {label}
    </Badge>
  );
}

/** Phones show this many payments until the borrower asks for all of them. */
const phoneRows = 6;

/**
 * The loan's monthly payments as they stand (from the money paid out, with each one's state), what to pay
 * next and the payoff today: a table on wider screens; on phones two-line rows, the first few at once and
 * the rest on request, so a 24-month loan does not bury the page. Before the first payout there is no
 * schedule yet, and the borrower is told when it starts.
 */
export function RepaymentSchedule(props: { schedule: Instalment[]; repayment?: Repayment }) {
  const { t } = useTranslation();
  const format = useFormat();
  const wide = useMediaQuery('(min-width: 36em)');
  const [showAll, { toggle }] = useDisclosure(false);
  const position = props.repayment?.position ?? null;
  const rows: Instalment[] = position ? position.schedule : props.schedule;
  if (rows.length === 0) {
    if (!props.repayment) return null;
    return (
      <SectionCard titleId="schedule-title" title={t('wallet.schedule.title')}>
        <Text size="sm" c="dimmed" mt={4}>
          {t('wallet.schedule.beforePayout')}
        </Text>
      </SectionCard>
    );
  }
  const paidInFull = position !== null && position.payoffMinor === 0 && position.nextPayment === null;

  const totals = {
    payment: sumMinor(rows.map((r) => r.paymentMinor)),
    principal: sumMinor(rows.map((r) => r.principalMinor)),
    interest: sumMinor(rows.map((r) => r.interestMinor)),
  };

  return (
    <SectionCard titleId="schedule-title" title={t('wallet.schedule.title')}>
      <Text size="sm" c="dimmed" mt={4} mb="sm">
        {t('wallet.schedule.summary', {
          total: format.money(totals.payment),
          interest: format.money(totals.interest),
        })}
      </Text>
      {position && !paidInFull ? (
        // What is due now and next is said first, on the loan's card at the top (issue #32); here the
        // payoff and the statement.
        <Stack gap={2} mb="sm" data-testid="repayment-position">
          <Text size="sm">{t('wallet.schedule.payoff', { amount: format.money(position.payoffMinor) })}</Text>
          <StatementDownload prominent={false} />
        </Stack>
      ) : null}
      {wide ? (
        <Table.ScrollContainer minWidth={520}>
          <Table striped highlightOnHover verticalSpacing={6} fz="sm" aria-labelledby="schedule-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wallet.schedule.number')}</Table.Th>
                <Table.Th>{t('wallet.schedule.dueDate')}</Table.Th>
                <Table.Th ta="right">{t('wallet.schedule.payment')}</Table.Th>
                <Table.Th ta="right">{t('wallet.schedule.principal')}</Table.Th>
                <Table.Th ta="right">{t('wallet.schedule.interest')}</Table.Th>
                <Table.Th ta="right">{t('wallet.schedule.balance')}</Table.Th>
                {position ? <Table.Th>{t('wallet.schedule.state')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.number}>
                  <Table.Td>{row.number}</Table.Td>
                  <Table.Td className={classes.money}>{format.calendarDate(row.dueDate)}</Table.Td>
                  <Table.Td ta="right" fw={600} className={classes.money}>
                    {format.money(row.paymentMinor)}
                  </Table.Td>
                  <Table.Td ta="right" className={classes.money}>
                    {format.money(row.principalMinor)}
                  </Table.Td>
                  <Table.Td ta="right" className={classes.money}>
                    {format.money(row.interestMinor)}
                  </Table.Td>
                  <Table.Td ta="right" className={classes.money}>
                    {format.money(row.balanceMinor)}
                  </Table.Td>
                  {position ? (
                    <Table.Td>
                      <StateBadge row={row} />
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={2}>{t('wallet.schedule.total')}</Table.Th>
                <Table.Th ta="right" className={classes.money}>
                  {format.money(totals.payment)}
                </Table.Th>
                <Table.Th ta="right" className={classes.money}>
                  {format.money(totals.principal)}
                </Table.Th>
                <Table.Th ta="right" className={classes.money}>
                  {format.money(totals.interest)}
                </Table.Th>
                <Table.Th />
                {position ? <Table.Th /> : null}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack gap={0} component="ol" className={classes.list} aria-labelledby="schedule-title">
          {(showAll ? rows : rows.slice(0, phoneRows)).map((row) => (
            <li key={row.number} className={classes.listItem}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" fw={500} className={classes.money}>
                  <Text span c="dimmed" size="sm" mr={6}>
                    {row.number}.
                  </Text>
                  {format.calendarDate(row.dueDate)}
                </Text>
                <Text size="sm" fw={700} className={classes.money}>
                  {format.money(row.paymentMinor)}
                </Text>
              </Group>
              {/* The state goes under the date: beside the amount it pushed the row past a 390 px screen. */}
              <Group gap={6} mt={2} align="center">
                <StateBadge row={row} />
                <Text size="xs" c="dimmed">
                  {t('wallet.schedule.breakdown', {
                    principal: format.money(row.principalMinor),
                    interest: format.money(row.interestMinor),
                    balance: format.money(row.balanceMinor),
                  })}
                </Text>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {!wide && rows.length > phoneRows ? (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={toggle} aria-expanded={showAll}>
          {showAll ? t('wallet.schedule.showFewer') : t('wallet.schedule.showAll', { n: rows.length })}
        </Button>
      ) : null}
    </SectionCard>
  );
}
