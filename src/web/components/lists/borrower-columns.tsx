import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { Formatters } from '../../lib/format';
import type { Column } from './data-table';

interface BorrowerRow {
  loanNumber: string;
  fullName: string;
  phone: string;
}

/** Loan ID, borrower name and phone: the first columns of every staff list about loans. */
export function borrowerColumns<T extends BorrowerRow>(t: TFunction, fmt: Formatters): Column<T>[] {
  return [
    {
      key: 'loanId',
      header: t('backOffice.columns.loanId'),
      cell: (item) => (
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
