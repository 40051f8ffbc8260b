import '@mantine/charts/styles.layer.css';
import { PieChart } from '@mantine/charts';
import { Box, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartPie } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardSummary } from '../../../../domain/schemas/staff';
import { InlineLoading } from '../../../components/load-state';
import { useFormat } from '../../../lib/format';
import { statusLook } from '../../../lib/status';
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

/** The chart's box while the figures load, about as tall as the pie and its legend (nothing moves after). */
export function StatusOverviewLoading() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" h="100%">
      <Title order={2} size="h4" mb="sm">
        {t('backOffice.home.chartTitle')}
      </Title>
      <InlineLoading mih={CHART_HEIGHT} py={0} />
    </Paper>
  );
}

/** The pie (150 px) with its gap and three legend rows. */
const CHART_HEIGHT = 245;

/** The pie of approved / pending / rejected; an honest empty state when there is nothing to show. */
export function StatusOverview({ summary }: { summary: DashboardSummary }) {
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
