import { Anchor, Stack, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { paidParts } from '../../../../domain/loan/repayments/allocation-parts';
import type { LoanLedgerDto } from '../../../../domain/schemas/repayments';
import { DateTimeCell } from '../../../components/date-time-cell';
import type { Column } from '../../../components/lists/data-table';
import { actionsColumn } from '../../../components/lists/row-actions';
import { useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useChannelName } from '../../../lib/payment-channels';
import { RepaymentStatusBadge } from './repayment-status';
import { TableSection } from './table-section';

export type LedgerRepayment = LoanLedgerDto['repayments'][number];
type Allocation = NonNullable<LedgerRepayment['allocation']>;

function AllocationSplit({ allocation }: { allocation: Allocation }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const parts = paidParts(allocation);
  return (
    <Stack gap={0} data-testid="allocation">
      {parts.map(([label, minor]) => (
        <Text key={label} size="xs">
          {t(`staffLoans.ledger.parts.${label}`)}{' '}
          <Text span size="xs" fw={600}>
            {fmt.money(minor)}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}

export interface RepaymentLedgerProps {
  repayments: readonly LedgerRepayment[];
  /** Shown when the user may reverse (finance, admin): the Reverse action of a row not yet reversed. */
  onReverse?: ((repayment: LedgerRepayment) => void) | undefined;
}

/** Every repayment of the loan as recorded, with where it went; reversed ones struck through, with why. */
export function RepaymentLedger({ repayments, onReverse }: RepaymentLedgerProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const channelName = useChannelName();
  const l = (key: string, options?: Record<string, unknown>) => t(`staffLoans.ledger.${key}`, options);
  const struck = (row: LedgerRepayment) => (row.reversed ? { textDecoration: 'line-through' } : undefined);

  const columns: Column<LedgerRepayment>[] = [
    {
      key: 'receivedOn',
      header: l('receivedOn'),
      cell: (row) => (
        <Text span size="sm" style={struck(row)}>
          {fmt.calendarDate(row.receivedOn)}
        </Text>
      ),
    },
    {
      key: 'amount',
      header: l('amount'),
      align: 'right',
      cell: (row) => (
        <Text span size="sm" fw={600} style={struck(row)}>
          {fmt.money(row.amountMinor)}
        </Text>
      ),
    },
    {
      key: 'channel',
      header: l('channelReference'),
      nowrap: false,
      cell: (row) => (
        <Stack gap={0} miw={90} maw={170}>
          <Text span size="sm">
            {channelName(row.channel)}
          </Text>
          <Text span size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {row.reference}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'recorded',
      header: l('recorded'),
      cell: (row) => (
        <Stack gap={0}>
          <Text span size="sm" fw={500}>
            {row.recordedBy ?? t(`staffLoans.source.${row.source}`)}
          </Text>
          {row.recordedBy ? (
            <Text span size="xs" c="dimmed">
              {t(`staffLoans.source.${row.source}`)}
            </Text>
          ) : null}
          <DateTimeCell iso={row.recordedAt} />
        </Stack>
      ),
    },
    {
      key: 'allocation',
      header: l('allocation'),
      cell: (row) =>
        row.allocation && !row.reversed ? (
          <AllocationSplit allocation={row.allocation} />
        ) : (
          <Text span size="xs" c="dimmed">
            {l('notApplied')}
          </Text>
        ),
    },
    {
      key: 'status',
      header: l('status'),
      nowrap: false,
      cell: (row) => (
        <Stack gap={2} miw={140} maw={200} align="flex-start">
          <RepaymentStatusBadge reversed={row.reversal !== null} />
          {row.reversal ? (
            <>
              <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                {row.reversal.reason}
              </Text>
              <Text size="xs" c="dimmed">
                {l('reversedBy', {
                  name: row.reversal.reversedBy ?? fmt.na,
                  date: fmt.dateTime(row.reversal.reversedAt),
                })}
              </Text>
            </>
          ) : null}
          {/* The borrower's receipt, as they see it (issue #32), to send or read out to them. */}
          <Anchor
            href={`/api/staff/repayments/${row.id}/receipt.pdf?lang=${currentLanguage()}`}
            download
            size="xs"
            aria-label={t('paying.staffReceipt', { reference: row.reference })}
          >
            {t('paying.staffReceiptShort')}
          </Anchor>
        </Stack>
      ),
    },
    ...(onReverse
      ? [
          actionsColumn<LedgerRepayment>(
            t('backOffice.columns.action'),
            (row) => row.reference,
            (row) =>
              row.reversed
                ? []
                : [
                    {
                      key: 'reverse',
                      label: t('staffLoans.reverse.action'),
                      icon: <IconArrowBackUp size={16} />,
                      color: 'red',
                      onClick: () => onReverse(row),
                    },
                  ],
          ),
        ]
      : []),
  ];

  return (
    <TableSection
      titleId="ledger-title"
      title={l('title')}
      empty={l('empty')}
      columns={columns}
      rows={repayments}
      rowKey={(row) => row.id}
      minWidth={onReverse ? 940 : 860}
    />
  );
}
