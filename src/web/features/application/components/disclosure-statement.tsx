import { Alert, Box, Button, Center, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconFileDescription } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingLine } from '../../../components/load-state';
import { useErrorText } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { tintedBackground } from '../../../lib/styles/tint';
import type { Quote } from '../api/applications';
import classes from './disclosure-statement.module.css';
import { LoanFigures } from './loan-figures';

/**
 * The disclosure the borrower reads right above the signature pad (SPEC principle 2): the server's own
 * quote for the step-1 amount and term, every figure and the whole payment schedule.
 */
export function DisclosureStatement({ quote }: { quote: UseQueryResult<Quote> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const fmt = useFormat();

  if (quote.isPending) {
    return (
      <Center py="md" role="status">
        <LoadingLine text={t('application.disclosure.loading')} />
      </Center>
    );
  }
  if (quote.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {t('application.disclosure.failed')} {errorText(quote.error)}
          </Text>
          <Button size="compact-sm" variant="light" color="red" onClick={() => void quote.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const { disclosure, disclosureSha256 } = quote.data;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="section"
      aria-labelledby="disclosure-title"
      bg={tintedBackground}
    >
      <Group gap={8} wrap="nowrap" mb={2}>
        <IconFileDescription size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
        <Title order={4} size="h5" id="disclosure-title">
          {t('application.disclosure.title')}
        </Title>
      </Group>
      <Text size="xs" c="dimmed" mb={4}>
        {t('application.disclosure.intro')}
      </Text>
      <LoanFigures disclosure={disclosure} />
      <Title order={5} size="h6" mt="md" mb={4}>
        {t('application.disclosure.schedule')}
      </Title>
      <Box component="ol" hiddenFrom="sm" className={classes.list}>
        {disclosure.schedule.map((row) => (
          <li key={row.number} className={classes.item}>
            <div className={classes.head}>
              <span>
                {row.number}. {fmt.calendarDate(row.dueDate)}
              </span>
              <strong>{fmt.money(row.paymentMinor)}</strong>
            </div>
            <div className={classes.detail}>
              {(
                [
                  ['principal', row.principalMinor],
                  ['interest', row.interestMinor],
                  ['balance', row.balanceMinor],
                ] as const
              ).map(([key, minor], i) => (
                <Fragment key={key}>
                  {i > 0 ? ' · ' : ''}
                  <span className={classes.pair}>
                    {t(`application.disclosure.${key}`)} {fmt.money(minor)}
                  </span>
                </Fragment>
              ))}
            </div>
          </li>
        ))}
      </Box>
      <Table.ScrollContainer minWidth={460} type="native" visibleFrom="sm">
        <Table
          striped
          fz="xs"
          horizontalSpacing={6}
          verticalSpacing={4}
          style={{ fontVariantNumeric: 'tabular-nums' }}
          aria-labelledby="disclosure-title"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('application.disclosure.number')}</Table.Th>
              <Table.Th>{t('application.disclosure.dueDate')}</Table.Th>
              <Table.Th ta="end">{t('application.disclosure.payment')}</Table.Th>
              <Table.Th ta="end">{t('application.disclosure.principal')}</Table.Th>
              <Table.Th ta="end">{t('application.disclosure.interest')}</Table.Th>
              <Table.Th ta="end">{t('application.disclosure.balance')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {disclosure.schedule.map((row) => (
              <Table.Tr key={row.number}>
                <Table.Td>{row.number}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt.calendarDate(row.dueDate)}</Table.Td>
                <Table.Td ta="end">{fmt.money(row.paymentMinor)}</Table.Td>
                <Table.Td ta="end">{fmt.money(row.principalMinor)}</Table.Td>
                <Table.Td ta="end">{fmt.money(row.interestMinor)}</Table.Td>
                <Table.Td ta="end">{fmt.money(row.balanceMinor)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed" mt="xs">
        {t('application.disclosure.datesNote', { date: fmt.calendarDate(disclosure.startDate) })}{' '}
        {t('application.disclosure.reference', { ref: disclosureSha256.slice(0, 12) })}
      </Text>
      <Text size="sm" fw={600} mt="sm">
        {t('application.disclosure.binding', {
          amount: fmt.money(disclosure.amountMinor),
          n: disclosure.termMonths,
          payment: fmt.money(disclosure.monthlyPaymentMinor),
        })}
      </Text>
    </Paper>
  );
}
