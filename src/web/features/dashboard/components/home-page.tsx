import '../../../lib/styles/all';
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
import { InlineLoadError } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';
import { statusLook } from '../../../lib/status';
import { dashboardQuery, portfolioQuery } from '../api/dashboard';
import { LoanBook } from './loan-book';
import { StatCard } from './stat-card';
import { StatusOverview, StatusOverviewLoading } from './status-overview';

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

  // The cards are laid out before the figures arrive (each value a placeholder until then), so the page
  // does not shift when they do (issue #12: CLS).
  const value = <T,>(format: (s: NonNullable<typeof summary>) => T) => (summary ? format(summary) : null);
  const cards = [
    {
      id: 'registeredToday',
      value: value((s) => fmt.number(s.registeredToday)),
      icon: IconUserPlus,
      color: 'blue',
    },
    {
      id: 'registeredTotal',
      value: value((s) => fmt.number(s.registeredTotal)),
      icon: IconUsers,
      color: 'blue',
    },
    {
      id: 'minLoanToday',
      value: value((s) => fmt.money(s.minLoanTodayMinor)),
      icon: IconArrowDown,
      color: 'teal',
    },
    {
      id: 'maxLoanToday',
      value: value((s) => fmt.money(s.maxLoanTodayMinor)),
      icon: IconArrowUp,
      color: 'teal',
    },
    {
      id: 'disbursedToday',
      value: value((s) => fmt.money(s.disbursedTodayMinor)),
      icon: IconCash,
      color: 'teal',
    },
    {
      id: 'approvedLoans',
      value: value((s) => fmt.number(s.approvedLoans)),
      icon: IconCircleCheck,
      color: statusLook('approved').color,
    },
    {
      id: 'pendingLoans',
      value: value((s) => fmt.number(s.pendingLoans)),
      icon: IconClockHour4,
      color: statusLook('pending').color,
    },
    {
      id: 'rejectedLoans',
      value: value((s) => fmt.number(s.rejectedLoans)),
      icon: IconCircleX,
      color: statusLook('rejected').color,
    },
    { id: 'avgLoan', value: value((s) => fmt.money(s.avgLoanMinor)), icon: IconScale, color: 'grape' },
    {
      id: 'totalLoans',
      value: value((s) => fmt.number(s.totalLoans)),
      icon: IconChartPie,
      color: 'gray',
    },
    // Complaints (issue #14): how many wait for an answer, and how long one takes to resolve.
    {
      id: 'openComplaints',
      label: t('complaints.dashboard.openComplaints'),
      value: value((s) => fmt.number(s.openComplaints)),
      icon: IconMessageReport,
      color: 'orange',
    },
    {
      id: 'medianResolve',
      label: t('complaints.dashboard.medianResolve'),
      value: value((s) => resolveTime(s.medianResolveSeconds)),
      icon: IconHourglass,
      color: 'orange',
    },
  ];

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
      {summary || query.isPending ? (
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
              {summary ? <StatusOverview summary={summary} /> : <StatusOverviewLoading />}
            </Grid.Col>
          </Grid>
          <Text size="xs" c="dimmed">
            {summary
              ? t('backOffice.home.todayNote', { timeZone: fmt.timeZoneName(summary.timeZone) })
              : '\u00a0'}
          </Text>
        </Stack>
      ) : null}
      <Box mt="xl">
        <LoanBook query={portfolio} />
      </Box>
    </Box>
  );
}
