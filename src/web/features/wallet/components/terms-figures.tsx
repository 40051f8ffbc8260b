import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';

type Figures = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The disclosure figures a borrower compares: one column per statement (e.g. now and proposed). */
export function TermsFigures(props: { columns: { label: string; disclosure: Figures }[]; caption: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const money = (v: unknown) => (num(v) === null ? '-' : fmt.money(num(v)));
  const rows: [string, (d: Figures) => string][] = [
    ['amount', (d) => money(d.amountMinor)],
    [
      'term',
      (d) => (num(d.termMonths) === null ? '-' : t('wallet.terms.months', { count: num(d.termMonths)! })),
    ],
    ['monthlyPayment', (d) => money(d.monthlyPaymentMinor)],
    ['totalRepayable', (d) => money(d.totalRepayableMinor)],
    ['totalInterest', (d) => money(d.totalInterestMinor)],
    ['fees', (d) => money((d.fees as Figures | undefined)?.totalMinor)],
    ['monthlyRate', (d) => (str(d.monthlyRate) ? fmt.percent(str(d.monthlyRate)) : '-')],
    ['apr', (d) => (str(d.apr) ? fmt.percent(str(d.apr)) : '-')],
    ['effectiveRate', (d) => (str(d.effectiveAnnualRate) ? fmt.percent(str(d.effectiveAnnualRate)) : '-')],
  ];
  return (
    <Table
      fz="sm"
      striped
      verticalSpacing={4}
      horizontalSpacing={6}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      <Table.Caption>
        <Text span size="xs" c="dimmed">
          {props.caption}
        </Text>
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('wallet.terms.figure')}</Table.Th>
          {props.columns.map((c) => (
            <Table.Th key={c.label} ta="end">
              {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row" fw={400}>
              {t(`wallet.terms.figures.${key}`)}
            </Table.Th>
            {props.columns.map((c) => (
              <Table.Td key={c.label} ta="end">
                {value(c.disclosure)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
