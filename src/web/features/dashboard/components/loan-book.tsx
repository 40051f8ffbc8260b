import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlarm, IconCoins, IconPercentage, IconReceipt, IconReportMoney } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PortfolioSummary } from '../../../../domain/schemas/portfolio';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';
import { StatCard } from './stat-card';

/** Basis points per whole (PAR30 comes as 0–10,000). */
const BP_PER_WHOLE = 10_000;

/** "Loan Book": the money side of the loans paid out (GET /api/staff/dashboard/portfolio). */
export function LoanBook({ query }: { query: UseQueryResult<PortfolioSummary> }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const portfolio = query.data;
  const cards = portfolio
    ? [
        {
          id: 'outstandingPrincipal',
          value: fmt.money(portfolio.outstandingPrincipalMinor),
          icon: IconReportMoney,
          color: 'blue',
        },
        {
          id: 'collectedThisMonth',
          value: fmt.money(portfolio.collectedThisMonthMinor),
          icon: IconCoins,
          color: 'teal',
        },
        {
          id: 'feesThisMonth',
          value: fmt.money(portfolio.feesThisMonthMinor),
          icon: IconReceipt,
          color: 'grape',
        },
        { id: 'overdueLoans', value: fmt.number(portfolio.overdueLoans), icon: IconAlarm, color: 'orange' },
        {
          id: 'par30',
          value: fmt.percent(portfolio.par30Bp / BP_PER_WHOLE),
          icon: IconPercentage,
          color: 'red',
        },
      ]
    : [];

  return (
    <Stack gap="sm" component="section" aria-labelledby="loan-book-title">
      <Title order={2} size="h4" id="loan-book-title">
        {t('backOffice.home.loanBook.title')}
      </Title>
      {query.isError ? <InlineLoadError error={query.error} onRetry={() => void query.refetch()} /> : null}
      {portfolio ? (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, xl: 5 }} spacing="md">
            {cards.map((card) => (
              <StatCard
                key={card.id}
                testId={`card-${card.id}`}
                label={t(`backOffice.home.cards.${card.id}`)}
                value={card.value}
                icon={card.icon}
                color={card.color}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('backOffice.home.loanBook.asOf', { date: fmt.calendarDate(portfolio.asOf) })}
          </Text>
        </>
      ) : query.isPending ? (
        <InlineLoading />
      ) : null}
    </Stack>
  );
}
