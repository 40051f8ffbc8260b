import { Badge, Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { useFormat } from '../../../lib/format';
import classes from './wallet.module.css';

function Figure(props: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" className={classes.cardLabel}>
        {props.label}
      </Text>
      <Text fw={700} size="md" data-testid={props.testId} className={classes.cardFigure}>
        {props.value}
      </Text>
    </Stack>
  );
}

/**
 * Borrower name, loan number and the money: the requested terms before a decision; the amount left to
 * withdraw until money is paid out; then what pays the loan off today (issue #32: a repaying borrower's
 * headline is what they owe, not an empty balance to withdraw), with what is left to withdraw beside it.
 */
export function LoanCard(props: { wallet: WalletResponse }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { application, balance } = props.wallet;
  if (!application) return null;
  const position = application.status === 'closed' ? null : (props.wallet.repayment?.position ?? null);

  return (
    <Paper
      radius="lg"
      p="lg"
      className={classes.loanCard}
      aria-label={t('wallet.card.label')}
      component="section"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={0} miw={0}>
          <Text size="xs" className={classes.cardLabel}>
            {t('wallet.card.borrower')}
          </Text>
          <Text fw={700} size="lg" lineClamp={2} className={classes.cardFigure}>
            {application.fullName}
          </Text>
        </Stack>
        <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
          <Text size="xs" className={classes.cardLabel}>
            {t('wallet.card.loanNumber')}
          </Text>
          <Badge variant="white" color="dark" radius="sm" size="lg" className={classes.loanNumber}>
            {application.loanNumber}
          </Badge>
        </Stack>
      </Group>

      {balance ? (
        // The headline is what pays the loan off once it is repaid, else what is left to withdraw; a closed
        // loan has none (nothing to withdraw, nothing owed). Beside what was withdrawn: what is left to
        // withdraw when the headline is the payoff, else what was approved.
        <>
          {position ? (
            <Headline
              label={t('wallet.card.payoffToday')}
              value={format.money(position.payoffMinor)}
              testId="payoff-today"
            />
          ) : application.status === 'closed' ? null : (
            <Headline
              label={t('wallet.card.available')}
              value={format.money(balance.availableMinor)}
              testId="available-balance"
            />
          )}
          <SimpleGrid cols={2} spacing="md" mt={application.status === 'closed' ? 'lg' : 'md'}>
            <Figure
              label={t('wallet.card.withdrawn')}
              value={format.money(balance.withdrawnMinor)}
              testId="withdrawn-total"
            />
            {position ? (
              <Figure
                label={t('wallet.card.available')}
                value={format.money(balance.availableMinor)}
                testId="available-balance"
              />
            ) : (
              <Figure label={t('wallet.card.approved')} value={format.money(balance.approvedMinor)} />
            )}
          </SimpleGrid>
        </>
      ) : (
        <SimpleGrid cols={2} spacing="md" mt="lg">
          <Figure label={t('wallet.card.requested')} value={format.money(application.amountMinor)} />
          <Figure
            label={t('wallet.card.term')}
            value={t('wallet.card.termMonths', { n: application.termMonths })}
          />
        </SimpleGrid>
      )}
    </Paper>
  );
}

/** The card's one large figure, under its label. */
function Headline(props: { label: string; value: string; testId: string }) {
  return (
    <Box mt="lg">
      <Text size="sm" className={classes.cardLabel}>
        {props.label}
      </Text>
      <Text fw={800} className={classes.balance} data-testid={props.testId}>
        {props.value}
      </Text>
    </Box>
  );
}
