import { Select, Text } from '@mantine/core';
import { IconCircleCheck, IconMessage, IconUserShare } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComplaintListItem } from '../../../../domain/schemas/complaints';
import { complaintStatuses } from '../../../../domain/schemas/complaints';
import { DateTimeCell } from '../../../components/date-time-cell';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import { nameAndPhoneSearch, type SearchField } from '../../../components/lists/search-bar';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { AssignComplaintModal } from './assign-complaint-modal';
import { ComplaintModal } from './complaint-modal';
import { ResolveComplaintModal } from './resolve-complaint-modal';

const filterValues = ['open', ...complaintStatuses, 'all'] as const;

/**
 * The Complaints queue (issue #14; officers and admins): open complaints oldest first with their age,
 * searched and paged on the server. Each one is answered, assigned and resolved from its Actions menu.
 */
export function ComplaintsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const c = (key: string) => t(`complaints.staff.${key}`);
  const [dialog, setDialog] = useState<'view' | 'assign' | 'resolve' | null>(null);
  const [row, setRow] = useState<ComplaintListItem | null>(null);
  const open = (kind: 'view' | 'assign' | 'resolve', item: ComplaintListItem) => {
    setRow(item);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const search: SearchField[] = [
    { key: 'q', label: c('search'), placeholder: c('searchPlaceholder') },
    ...nameAndPhoneSearch(t),
  ];

  const columns: Column<ComplaintListItem>[] = [
    {
      key: 'reference',
      header: c('reference'),
      cell: (item) => (
        <Text size="sm" ff="monospace" fw={600}>
          {item.reference}
        </Text>
      ),
    },
    { key: 'received', header: c('received'), cell: (item) => <DateTimeCell iso={item.createdAt} /> },
    { key: 'age', header: c('age'), align: 'right', cell: (item) => fmt.number(item.ageDays) },
    {
      key: 'borrower',
      header: c('borrower'),
      nowrap: false,
      cell: (item) => (
        <>
          <Text size="sm" miw={90} maw={170}>
            {fmt.text(item.fullName)}
          </Text>
          <Text size="xs" c="dimmed">
            {fmt.text(item.phone)}
          </Text>
        </>
      ),
    },
    {
      key: 'category',
      header: c('category'),
      nowrap: false,
      cell: (item) => (
        <Text size="sm" miw={90} maw={160}>
          {t(`complaints.categories.${item.category}`)}
        </Text>
      ),
    },
    { key: 'status', header: c('status'), cell: (item) => <StatusBadge status={item.status} /> },
    {
      key: 'assignedTo',
      header: c('assignedTo'),
      cell: (item) =>
        item.assignedTo ?? (
          <Text span size="sm" c="dimmed">
            {c('unassigned')}
          </Text>
        ),
    },
    actionsColumn<ComplaintListItem>(
      t('backOffice.columns.action'),
      (item) => item.reference,
      (item) => [
        {
          key: 'view',
          label: c('actions.view'),
          icon: <IconMessage size={16} />,
          onClick: () => open('view', item),
        },
        ...(item.status === 'resolved'
          ? []
          : [
              {
                key: 'assign',
                label: c('actions.assign'),
                icon: <IconUserShare size={16} />,
                onClick: () => open('assign', item),
              },
              {
                key: 'resolve',
                label: c('actions.resolve'),
                icon: <IconCircleCheck size={16} />,
                color: 'green',
                onClick: () => open('resolve', item),
              },
            ]),
      ],
    ),
  ];

  return (
    <>
      <ListPage<ComplaintListItem>
        title={c('title')}
        queryKey={backOfficeKeys.list('complaints')}
        endpoint="/api/staff/complaints"
        search={search}
        filterKeys={['status']}
        filters={({ values, set }) => (
          <Select
            label={c('filter.label')}
            w={200}
            allowDeselect={false}
            value={values.status || 'open'}
            onChange={(value) => set('status', value === 'open' || !value ? '' : value)}
            data={filterValues.map((value) => ({ value, label: c(`filter.${value}`) }))}
          />
        )}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={960}
      >
        <Text size="sm" c="dimmed" mb="md" maw={760}>
          {c('intro')}
        </Text>
      </ListPage>
      <ComplaintModal id={dialog === 'view' ? (row?.id ?? null) : null} onClose={close} />
      <AssignComplaintModal row={row} opened={dialog === 'assign'} onClose={close} />
      <ResolveComplaintModal row={row} opened={dialog === 'resolve'} onClose={close} />
    </>
  );
}
