import { Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeCell } from '../../../components/date-time-cell';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { useChannelName } from '../../../lib/payment-channels';
import { useCan } from '../../../lib/session';
import { backOfficeKeys } from '../../../lib/staff/keys';
import type { UnappliedPayment } from '../api/unapplied';
import { ApplyPaymentModal } from './apply-payment-modal';
import { ReturnPaymentModal } from './return-payment-modal';
import { SuggestionCell } from './suggestion-cell';

/** Long references and names wrap inside a narrow column instead of widening the table. */
const wrapping = { miw: 80, maw: 150, style: { overflowWrap: 'anywhere' as const } };

/**
 * Unapplied payments (issue #10, finance and admins): provider payments the webhook could not apply to a
 * loan, open ones first. Each open one is applied to a loan or marked returned, once. The loan it likely
 * belongs to is suggested with why (issue #32), and applied in one step, still confirmed.
 */
export function UnappliedPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const canResolve = can('unappliedPayment.resolve');
  /** The provider's channel by its name ("GCash"), not its code. */
  const channelName = useChannelName();
  const [dialog, setDialog] = useState<'apply' | 'return' | null>(null);
  const [row, setRow] = useState<UnappliedPayment | null>(null);
  /** Apply opened from the suggestion: its loan filled in (kept while the dialog closes). */
  const [suggested, setSuggested] = useState(false);
  const open = (kind: 'apply' | 'return', item: UnappliedPayment, fromSuggestion = false) => {
    setRow(item);
    setSuggested(fromSuggestion);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const u = (key: string) => t(`collections.unapplied.columns.${key}`);

  const resolution = (item: UnappliedPayment) => {
    if (item.status === 'open') return null;
    return (
      <>
        {item.status === 'applied' && item.appliedLoanNumber ? (
          <Text size="xs" ff="monospace">
            {t('collections.unapplied.appliedTo', { loanNumber: item.appliedLoanNumber })}
          </Text>
        ) : null}
        {item.status === 'returned' && item.resolutionNote ? (
          <Text size="xs" {...wrapping} maw={170}>
            {item.resolutionNote}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed" title={fmt.dateTime(item.resolvedAt)}>
          {t('collections.unapplied.resolvedBy', {
            name: fmt.text(item.resolvedBy),
            date: fmt.date(item.resolvedAt),
          })}
        </Text>
      </>
    );
  };

  const columns: Column<UnappliedPayment>[] = [
    { key: 'receivedAt', header: u('receivedAt'), cell: (item) => <DateTimeCell iso={item.receivedAt} /> },
    { key: 'amount', header: u('amount'), align: 'right', cell: (item) => fmt.money(item.amountMinor) },
    {
      key: 'suggestion',
      header: u('suggestion'),
      nowrap: false,
      cell: (item) => (
        <SuggestionCell item={item} onApply={canResolve ? () => open('apply', item, true) : null} />
      ),
    },
    {
      key: 'reason',
      header: u('reason'),
      nowrap: false,
      cell: (item) => (
        <Stack gap={2} miw={100} maw={170}>
          <Text size="sm">{t(`collections.unapplied.reason.${item.reason}`)}</Text>
          {item.earlierAmountMinor !== null && (
            <Text size="xs" c="dimmed">
              {t('collections.unapplied.earlierAmount', { amount: fmt.money(item.earlierAmountMinor) })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'payerReference',
      header: u('payerReference'),
      nowrap: false,
      cell: (item) => (
        <Stack gap={2}>
          <Text size="xs" ff="monospace" {...wrapping}>
            {fmt.text(item.payerReference)}
          </Text>
          {item.memo ? (
            <Text size="xs" c="dimmed" {...wrapping}>
              {t('collections.unapplied.suggestion.memo', { memo: item.memo })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'payerName',
      header: u('payerName'),
      nowrap: false,
      cell: (item) => (
        <Stack gap={2}>
          <Text size="sm" {...wrapping}>
            {fmt.text(item.payerName)}
          </Text>
          {item.payerPhone ? (
            <Text size="xs" c="dimmed" {...wrapping}>
              {t('collections.unapplied.suggestion.phone', { phone: item.payerPhone })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'provider',
      header: u('provider'),
      nowrap: false,
      cell: (item) => (
        <Text size="sm" miw={60} maw={120}>
          {fmt.text(channelName(item.provider))}
        </Text>
      ),
    },
    {
      key: 'providerReference',
      header: u('providerReference'),
      nowrap: false,
      cell: (item) => (
        <Text size="xs" ff="monospace" {...wrapping}>
          {item.providerReference}
        </Text>
      ),
    },
    {
      key: 'status',
      header: u('status'),
      nowrap: false,
      cell: (item) => (
        <Stack gap={2} align="flex-start" maw={170}>
          <StatusBadge status={item.status} />
          {resolution(item)}
        </Stack>
      ),
    },
    ...(canResolve
      ? [
          actionsColumn<UnappliedPayment>(
            t('backOffice.columns.action'),
            (item) => item.providerReference,
            (item) =>
              item.status === 'open'
                ? [
                    ...(item.suggestion
                      ? [
                          {
                            key: 'applySuggested',
                            label: t('collections.unapplied.suggestion.apply', {
                              loanNumber: item.suggestion.loanNumber,
                            }),
                            icon: <IconReceipt size={16} />,
                            onClick: () => open('apply', item, true),
                          },
                        ]
                      : []),
                    {
                      key: 'apply',
                      label: t('collections.unapplied.actions.apply'),
                      icon: <IconReceipt size={16} />,
                      onClick: () => open('apply', item),
                    },
                    {
                      key: 'return',
                      label: t('collections.unapplied.actions.return'),
                      icon: <IconArrowBackUp size={16} />,
                      color: 'red',
                      onClick: () => open('return', item),
                    },
                  ]
                : [],
          ),
        ]
      : []),
  ];

  return (
    <>
      <ListPage<UnappliedPayment>
        title={t('collections.unapplied.title')}
        queryKey={backOfficeKeys.list('unapplied')}
        endpoint="/api/staff/unapplied-payments"
        search={[]}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={canResolve ? 1120 : 1040}
      >
        <Text size="sm" c="dimmed" mb="md" maw={760}>
          {t('collections.unapplied.intro')}
        </Text>
      </ListPage>
      {canResolve ? (
        <>
          <ApplyPaymentModal row={row} opened={dialog === 'apply'} suggested={suggested} onClose={close} />
          <ReturnPaymentModal row={row} opened={dialog === 'return'} onClose={close} />
        </>
      ) : null}
    </>
  );
}
