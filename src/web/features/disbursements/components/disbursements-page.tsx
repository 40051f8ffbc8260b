import { Anchor, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { disbursementStatuses } from '../../../../domain/loan/disbursement-status';
import type { StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { DateTimeCell } from '../../../components/date-time-cell';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import { nameAndPhoneSearch, type SearchField } from '../../../components/lists/search-bar';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useCan } from '../../../lib/session';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { DestinationCell } from './full-destination';
import { MarkFailedModal } from './mark-failed-modal';
import { MarkPaidModal } from './mark-paid-modal';

/** Disbursements (SPEC §2.7): every payout request and what became of it. Records are never deleted. */
export function DisbursementsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const canDecide = can('disbursement.decide');
  const canReveal = can('disbursement.revealDestination');
  const [dialog, setDialog] = useState<'paid' | 'failed' | null>(null);
  const [row, setRow] = useState<StaffDisbursementItem | null>(null);
  const open = (kind: 'paid' | 'failed', item: StaffDisbursementItem) => {
    setRow(item);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const c = (key: string) => t(`backOffice.columns.${key}`);
  const d = (key: string) => t(`disbursements.columns.${key}`);
  const statusLabel = (status: StaffDisbursementItem['status']) => t(`status.${status}`);
  const search: SearchField[] = [
    ...nameAndPhoneSearch(t),
    {
      key: 'status',
      label: d('status'),
      placeholder: t('disbursements.allStatuses'),
      type: 'select',
      width: 180,
      options: disbursementStatuses.map((value) => ({
        value,
        label: statusLabel(value),
      })),
    },
  ];

  const outcome = (item: StaffDisbursementItem): ReactNode => {
    if (item.status === 'paid' && item.reference)
      return (
        <Stack gap={2} align="flex-start">
          <Text size="sm" ff="monospace" miw={90} maw={200} style={{ overflowWrap: 'anywhere' }}>
            {item.reference}
          </Text>
          {/* The borrower's payout receipt as they see it (issue #32): borrowed, fee, sent. */}
          <Anchor
            href={`/api/staff/disbursements/${item.id}/receipt.pdf?lang=${currentLanguage()}`}
            download
            size="xs"
            aria-label={t('paying.staffPayoutReceipt', { loanNumber: item.loanNumber })}
          >
            {t('paying.staffReceiptShort')}
          </Anchor>
        </Stack>
      );
    if (item.status === 'failed' && item.failureReason)
      return (
        <Text size="sm" c="red.7" miw={90} maw={200} style={{ overflowWrap: 'anywhere' }}>
          {item.failureReason}
        </Text>
      );
    return fmt.na;
  };

  const columns: Column<StaffDisbursementItem>[] = [
    ...borrowerColumns<StaffDisbursementItem>(t, fmt, { loanId: (item) => item.applicationId }),
    {
      key: 'amount',
      header: c('amount'),
      align: 'right',
      nowrap: false,
      cell: (item) =>
        item.feeMinor > 0 ? (
          <Stack gap={2} align="flex-end">
            <Text span size="sm">
              {fmt.money(item.amountMinor, { omitZeroCents: true })}
            </Text>
            <Text span size="xs" c="dimmed" ta="right">
              {t('disbursements.net', { net: fmt.money(item.netMinor) })}
            </Text>
          </Stack>
        ) : (
          fmt.money(item.amountMinor, { omitZeroCents: true })
        ),
    },
    {
      key: 'destination',
      header: d('destination'),
      nowrap: false,
      cell: (item) => <DestinationCell row={item} canReveal={canReveal} />,
    },
    { key: 'requestedAt', header: c('requestedAt'), cell: (item) => <DateTimeCell iso={item.requestedAt} /> },
    {
      key: 'status',
      header: d('status'),
      // Wraps, so a long username under the badge cannot push Reference under the pinned Action column.
      nowrap: false,
      cell: (item) => (
        <Stack gap={2} align="flex-start" miw={96} maw={150}>
          <StatusBadge status={item.status} />
          {item.decidedAt ? (
            // Who marked it and when, under the badge: one column less keeps the list within 1280 px.
            <Text size="xs" c="dimmed" title={fmt.dateTime(item.decidedAt)}>
              {item.decidedBy
                ? t('disbursements.markedBy', { name: item.decidedBy, date: fmt.date(item.decidedAt) })
                : fmt.date(item.decidedAt)}
            </Text>
          ) : item.loanStatus === 'on_hold' ? (
            <Text size="xs" c="red.7">
              {t('disbursements.loanOnHold')}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'reference', header: d('reference'), nowrap: false, cell: outcome },
    ...(canDecide
      ? [
          actionsColumn<StaffDisbursementItem>(
            c('action'),
            (item) => item.loanNumber,
            (item) =>
              item.status === 'requested'
                ? [
                    {
                      key: 'paid',
                      label: t('disbursements.actions.markPaid'),
                      icon: <IconCircleCheck size={16} />,
                      onClick: () => open('paid', item),
                    },
                    {
                      key: 'failed',
                      label: t('disbursements.actions.markFailed'),
                      icon: <IconCircleX size={16} />,
                      color: 'red',
                      onClick: () => open('failed', item),
                    },
                  ]
                : [],
          ),
        ]
      : []),
  ];

  return (
    <>
      <ListPage<StaffDisbursementItem>
        title={t('disbursements.title')}
        queryKey={backOfficeKeys.list('disbursements')}
        endpoint="/api/staff/disbursements"
        search={search}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={canDecide ? 940 : 880}
      />
      {canDecide ? (
        <>
          <MarkPaidModal row={row} opened={dialog === 'paid'} onClose={close} />
          <MarkFailedModal row={row} opened={dialog === 'failed'} onClose={close} />
        </>
      ) : null}
    </>
  );
}
