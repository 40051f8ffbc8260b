import { Anchor, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { Formatters } from '../../lib/format';
import type { Column } from './data-table';

interface BorrowerRow {
  loanNumber: string;
  fullName: string;
  phone: string;
}

export interface BorrowerColumnsOptions<T> {
  /** The loan's id: the Loan ID becomes a link to its loan page (/admin/loans/:id). */
  loanId?: (row: T) => string;
}

/** The loan page of a loan (schedule, repayments, payoff). */
const loanPagePath = (id: string) => `/admin/loans/${encodeURIComponent(id)}`;

/** Loan ID, borrower name and phone: the first columns of every staff list about loans. */
export function borrowerColumns<T extends BorrowerRow>(
  t: TFunction,
  fmt: Formatters,
  options: BorrowerColumnsOptions<T> = {},
): Column<T>[] {
  const { loanId } = options;
  return [
    {
      key: 'loanId',
      header: t('backOffice.columns.loanId'),
      cell: (item) =>
        loanId ? (
          <Anchor component={Link} to={loanPagePath(loanId(item))} ff="monospace" size="xs" fw={600}>
            {item.loanNumber}
          </Anchor>
        ) : (
          <Text span ff="monospace" size="xs">
            {item.loanNumber}
          </Text>
        ),
    },
    {
      key: 'name',
      header: t('backOffice.columns.name'),
      nowrap: false,
      cell: (item) => (
        <Text size="sm" miw={80} maw={200}>
          {fmt.text(item.fullName)}
        </Text>
      ),
    },
    { key: 'phone', header: t('backOffice.columns.phone'), cell: (item) => fmt.text(item.phone) },
  ];
}
