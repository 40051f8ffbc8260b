import '@mantine/charts/styles.css';
import { PieChart } from '@mantine/charts';
import { Box, Center, Grid, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCash,
  IconChartPie,
  IconCircleCheck,
  IconCircleX,
  IconClockHour4,
  IconScale,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '../../../../domain/schemas/staff';
import { PageHeader, RefreshButton } from '../../../components/lists/list-page';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';
import { statusLook } from '../../../lib/status';
import { dashboardQuery } from '../api/dashboard';
import classes from './home-page.module.css';

interface Slice {
  key: 'approved' | 'pending' | 'rejected';
  name: string;
  value: number;
  color: string;
}

/** Share of `value` in `total` as a rate for `fmt.percent`; the slices need not add up to exactly 100. */
function shareOf(value: number, total: number): number {
  return total > 0 ? value / total : 0;
}

function StatCard(props: {
  label: string;
  value: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  color: string;
  testId: string;
}) {
  const Icon = props.icon;
  return (
    <Paper withBorder radius="md" p="md" data-testid={props.testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} miw={0}>
          <Text size="sm" c="dimmed" fw={500}>
            {props.label}
          </Text>
          <Text fw={700} fz={{ base: 'lg', sm: 'xl' }} style={{ overflowWrap: 'anywhere' }}>
            {props.value}
          </Text>
        </Stack>
        <ThemeIcon variant="light" color={props.color} size="lg" radius="md" aria-hidden>
          <Icon size={20} stroke={1.7} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}

/** The pie of approved / pending / rejected; an honest empty state when there is nothing to show. */
function StatusOverview({ summary }: { summary: DashboardSummary }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const slices: Slice[] = [
    {
      key: 'approved',
      name: t(statusLook('approved').label),
      value: summary.approvedLoans,
      color: statusLook('approved').filled,
    },
    {
      key: 'pending',
      name: t(statusLook('pending').label),
      value: summary.pendingLoans,
      color: statusLook('pending').filled,
    },
    {
      key: 'rejected',
      name: t(statusLook('rejected').label),
      value: summary.rejectedLoans,
      color: statusLook('rejected').filled,
    },
  ];
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  const shown = slices.filter((slice) => slice.value > 0);

  return (
    <Paper withBorder radius="md" p="md" h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Title order={2} size="h4" mb="sm">
        {t('backOffice.home.chartTitle')}
      </Title>
      {total === 0 ? (
        <Center mih={220}>
          <Stack align="center" gap="xs">
            <ThemeIcon variant="light" color="gray" size={48} radius="xl" aria-hidden>
              <IconChartPie size={28} stroke={1.5} />
            </ThemeIcon>
            <Text c="dimmed" ta="center" data-testid="chart-empty">
              {t('backOffice.home.chartEmpty')}
            </Text>
          </Stack>
        </Center>
      ) : (
        <Stack gap="md" justify="center" style={{ flex: 1 }}>
          <Box role="img" aria-label={t('backOffice.home.chartTitle')}>
            <PieChart
              data={shown}
              size={150}
              className={classes.pie}
              style={{ width: '100%' }}
              withLabels
              withLabelsLine
              labelsPosition="outside"
              withTooltip={false}
              strokeWidth={1}
              pieProps={{
                label: (props: {
                  x: number;
                  y: number;
                  cx: number;
                  name: string;
                  value: number;
                }): ReactNode => (
                  <text
                    x={props.x}
                    y={props.y}
                    textAnchor={props.x > props.cx ? 'start' : 'end'}
                    dominantBaseline="central"
                    fill="var(--mantine-color-text)"
                    fontSize={12}
                  >
                    {`${props.name} ${fmt.percent(shareOf(props.value, total))}`}
                  </text>
                ),
              }}
            />
          </Box>
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {slices.map((slice) => (
              <Group key={slice.key} component="li" justify="space-between" gap="xs" wrap="nowrap">
                <Group gap={8} wrap="nowrap">
                  <Box
                    w={12}
                    h={12}
                    style={{ borderRadius: 3, flexShrink: 0 }}
                    bg={slice.color}
                    aria-hidden
                  />
                  <Text size="sm">{slice.name}</Text>
                </Group>
                <Text size="sm" fw={600}>
                  {t('backOffice.home.legendValue', {
                    count: fmt.number(slice.value),
                    percent: fmt.percent(shareOf(slice.value, total)),
                  })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}

/** /admin/home — "Home Page Summary" (SPEC §2.7): every figure from GET /api/staff/dashboard. */
export function HomePage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const query = useQuery(dashboardQuery);
  const summary = query.data;

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
      ]
    : [];

  return (
    <Box>
      <PageHeader title={t('backOffice.home.title')}>
        <RefreshButton onClick={() => void query.refetch()} loading={query.isFetching && !query.isPending} />
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
                    label={t(`backOffice.home.cards.${card.id}`)}
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
    </Box>
  );
}
