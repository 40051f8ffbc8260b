import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AccountClosureItem } from '../../../../domain/schemas/account-closures';
import { DateTimeCell } from '../../../components/date-time-cell';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import type { SearchField } from '../../../components/lists/search-bar';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { backOfficeKeys } from '../../../lib/staff/keys';

/**
 * Account closure requests (issue #14; officers and admins, read-only): borrowers who closed their account,
 * newest first, with the day their personal data is (or was) anonymised by the retention job.
 */
export function AccountClosuresPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const col = (key: string) => t(`privacy.staff.columns.${key}`);
  const search: SearchField[] = [
    {
      key: 'phone',
      label: t('backOffice.search.phone'),
      placeholder: t('backOffice.search.phonePlaceholder'),
      type: 'digits',
    },
  ];
  const columns: Column<AccountClosureItem>[] = [
    { key: 'requestedAt', header: col('requestedAt'), cell: (row) => <DateTimeCell iso={row.requestedAt} /> },
    { key: 'name', header: col('name'), nowrap: false, cell: (row) => fmt.text(row.fullName) },
    { key: 'phone', header: col('phone'), cell: (row) => fmt.text(row.phone) },
    { key: 'anonymiseOn', header: col('anonymiseOn'), cell: (row) => fmt.calendarDate(row.anonymiseOn) },
    {
      key: 'data',
      header: col('data'),
      cell: (row) =>
        row.anonymisedAt ? (
          <Stack gap={2} align="flex-start">
            <StatusBadge status="anonymised" />
            <Text size="xs" c="dimmed">
              {fmt.date(row.anonymisedAt)}
            </Text>
          </Stack>
        ) : (
          <StatusBadge status="kept" />
        ),
    },
  ];
  return (
    <ListPage<AccountClosureItem>
      title={t('privacy.staff.title')}
      queryKey={backOfficeKeys.list('account-closures')}
      endpoint="/api/staff/account-closures"
      search={search}
      columns={columns}
      rowKey={(row) => row.userId}
      tableMinWidth={720}
    >
      <Text size="sm" c="dimmed" mb="md" maw={760}>
        {t('privacy.staff.intro')}
      </Text>
    </ListPage>
  );
}
