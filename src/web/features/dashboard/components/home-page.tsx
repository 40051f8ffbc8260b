import { Box, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCash,
  IconChartPie,
  IconCircleCheck,
  IconCircleX,
  IconClockHour4,
  IconHourglass,
  IconMessageReport,
  IconScale,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader, RefreshButton } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';
import { dashboardQuery, portfolioQuery } from '../api/dashboard';
import { LoanBook } from './loan-book';
import { StatCard } from './stat-card';
import { StatusOverview } from './status-overview';

/**
 * /admin/home — "Home Page Summary" (SPEC §2.7): every figure from GET /api/staff/dashboard, then the
 * "Loan Book" (issue #10) from GET /api/staff/dashboard/portfolio; each part loads and fails on its own.
 */
export function HomePage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const query = useQuery(dashboardQuery);
  const portfolio = useQuery(portfolioQuery);
  const summary = query.data;
  const refreshing = (query.isFetching && !query.isPending) || (portfolio.isFetching && !portfolio.isPending);

  /** Under two days in hours, else in days; "N/A" before any complaint was resolved. */
  const resolveTime = (seconds: number | null) => {
    if (seconds === null) return fmt.text(null);
    const hours = seconds / 3600;
    return hours < 48
      ? t('complaints.dashboard.hours', { n: fmt.number(Math.round(hours * 10) / 10) })
      : t('complaints.dashboard.days', { n: fmt.number(Math.round((hours / 24) * 10) / 10) });
  };

  const cards = summary
    ? [
        {
          id: 'registeredToday',
          value: fmt.number(summary.registeredToday),
          icon: IconUserPlus,
          color: 'blue',
        },
        { id: 'registeredTotal', value: fmt.number(summary.registeredTotal), icon: IconUsers, color: 'blue' },
        {
          id: 'minLoanToday',
          value: fmt.money(summary.minLoanTodayMinor),
          icon: IconArrowDown,
          color: 'teal',
        },
        { id: 'maxLoanToday', value: fmt.money(summary.maxLoanTodayMinor), icon: IconArrowUp, color: 'teal' },
        {
          id: 'disbursedToday',
          value: fmt.money(summary.disbursedTodayMinor),
          icon: IconCash,
          color: 'teal',
        },
        {
          id: 'approvedLoans',
          value: fmt.number(summary.approvedLoans),
          icon: IconCircleCheck,
          color: 'green',
        },
        {
          id: 'pendingLoans',
          value: fmt.number(summary.pendingLoans),
          icon: IconClockHour4,
          color: 'yellow',
        },
        { id: 'rejectedLoans', value: fmt.number(summary.rejectedLoans), icon: IconCircleX, color: 'red' },
        { id: 'avgLoan', value: fmt.money(summary.avgLoanMinor), icon: IconScale, color: 'grape' },
        { id: 'totalLoans', value: fmt.number(summary.totalLoans), icon: IconChartPie, color: 'gray' },
        // Complaints (issue #14): how many wait for an answer, and how long one takes to resolve.
        {
          id: 'openComplaints',
          label: t('complaints.dashboard.openComplaints'),
          value: fmt.number(summary.openComplaints),
          icon: IconMessageReport,
          color: 'orange',
        },
        {
          id: 'medianResolve',
          label: t('complaints.dashboard.medianResolve'),
          value: resolveTime(summary.medianResolveSeconds),
          icon: IconHourglass,
          color: 'orange',
        },
      ]
    : [];

  return (
    <Box>
      <PageHeader title={t('backOffice.home.title')}>
        <RefreshButton
          onClick={() => {
            void query.refetch();
            void portfolio.refetch();
          }}
          loading={refreshing}
        />
      </PageHeader>
      {query.isError ? (
        <Box mb="md">
          <InlineLoadError error={query.error} onRetry={() => void query.refetch()} />
        </Box>
      ) : null}
      {summary ? (
        <Stack gap="md">
          <Grid gutter="md" align="stretch">
            <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 1, md: 2 }}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                {cards.map((card) => (
                  <StatCard
                    key={card.id}
                    testId={`card-${card.id}`}
                    label={
                      ('label' in card ? card.label : undefined) ?? t(`backOffice.home.cards.${card.id}`)
                    }
                    value={card.value}
                    icon={card.icon}
                    color={card.color}
                  />
                ))}
              </SimpleGrid>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 2, md: 1 }}>
              <StatusOverview summary={summary} />
            </Grid.Col>
          </Grid>
          <Text size="xs" c="dimmed">
            {t('backOffice.home.todayNote', { timeZone: summary.timeZone })}
          </Text>
        </Stack>
      ) : query.isPending ? (
        <InlineLoading />
      ) : null}
      <Box mt="xl">
        <LoanBook query={portfolio} />
      </Box>
    </Box>
  );
}
