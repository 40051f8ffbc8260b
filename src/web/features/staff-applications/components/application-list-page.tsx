import { IconArrowBackUp, IconCheck, IconChecks, IconId, IconPencil, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationListItem } from '../../../../domain/schemas/staff';
import { DateTimeCell } from '../../../components/date-time-cell';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import { nameAndPhoneSearch } from '../../../components/lists/search-bar';
import { ProfileModal } from '../../../components/staff/profile-modal';
import { LoanStateCell, WithdrawTermsModal } from '../../../components/staff/terms-change';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { useCan } from '../../../lib/session';
import { backOfficeKeys } from '../../../lib/staff/keys';
import type { LoanQueue } from '../api/applications';
import { ApproveModal } from './approve-modal';
import { ConfirmApprovalModal } from './confirm-approval-modal';
import { RejectModal } from './reject-modal';
import { UpdateLoanModal } from './update-loan-modal';

type Dialog = 'profile' | 'update' | 'approve' | 'confirm' | 'reject' | 'withdrawTerms';

/** Pending and Approved Loan Lists (SPEC §2.7): the same search, their own columns and actions. */
function ApplicationListPage({ queue }: { queue: LoanQueue }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const can = useCan();
  const canDecide = can('application.decide');
  const canEditTerms = can('application.editTerms');
  // The row stays set while a modal closes, so its content does not vanish mid-animation.
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [row, setRow] = useState<ApplicationListItem | null>(null);
  const open = (kind: Dialog, item: ApplicationListItem) => {
    setRow(item);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const c = (key: string) => t(`backOffice.columns.${key}`);
  const search = nameAndPhoneSearch(t);

  const decides = canDecide && queue === 'pending';
  const actions = actionsColumn<ApplicationListItem>(
    c('action'),
    (item) => item.loanNumber,
    (item) => [
      {
        key: 'profile',
        label: t('backOffice.actions.viewProfile'),
        icon: <IconId size={16} />,
        onClick: () => open('profile', item),
      },
      ...(canEditTerms
        ? [
            {
              key: 'update',
              label: t('backOffice.actions.updateLoan'),
              icon: <IconPencil size={16} />,
              onClick: () => open('update', item),
            },
          ]
        : []),
      ...(canEditTerms && item.termsChangePending
        ? [
            {
              key: 'withdrawTerms',
              label: t('backOffice.terms.withdraw'),
              icon: <IconArrowBackUp size={16} />,
              onClick: () => open('withdrawTerms', item),
            },
          ]
        : []),
      ...(decides
        ? [
            // Four-eyes: once approved by one staff member, the next one confirms (docs/decisions/018).
            item.firstApprovedBy
              ? {
                  key: 'confirm',
                  label: t('backOffice.fourEyes.confirm'),
                  icon: <IconChecks size={16} />,
                  onClick: () => open('confirm', item),
                }
              : {
                  key: 'approve',
                  label: t('backOffice.actions.approve'),
                  icon: <IconCheck size={16} />,
                  onClick: () => open('approve', item),
                },
            {
              key: 'reject',
              label: t('backOffice.actions.reject'),
              icon: <IconX size={16} />,
              color: 'red',
              onClick: () => open('reject', item),
            },
          ]
        : []),
    ],
  );

  const statusCell = (item: ApplicationListItem) => (
    <LoanStateCell
      status={<StatusBadge status={item.status} />}
      termsChangePending={item.termsChangePending}
      firstApprovedBy={item.firstApprovedBy}
    />
  );

  const common: Column<ApplicationListItem>[] = [
    ...borrowerColumns<ApplicationListItem>(
      t,
      fmt,
      queue === 'approved' ? { loanId: (item) => item.id } : {},
    ),
    {
      key: 'amount',
      header: c('amount'),
      align: 'right',
      // Loan amounts are whole pesos (steps of ₱10,000): no ".00" in the table.
      cell: (item) =>
        fmt.money(queue === 'approved' ? (item.approvedAmountMinor ?? item.amountMinor) : item.amountMinor, {
          omitZeroCents: true,
        }),
    },
    {
      key: 'term',
      header: c('term'),
      cell: (item) => t('backOffice.common.months', { count: item.termMonths }),
    },
  ];

  const columns: Column<ApplicationListItem>[] =
    queue === 'pending'
      ? [
          ...common,
          {
            key: 'requestedAt',
            header: c('requestedAt'),
            cell: (item) => <DateTimeCell iso={item.submittedAt} />,
          },
          { key: 'status', header: c('status'), cell: statusCell },
          actions,
        ]
      : [
          ...common,
          {
            key: 'dateApproved',
            header: c('dateApproved'),
            cell: (item) => <DateTimeCell iso={item.decidedAt} />,
          },
          { key: 'approvedBy', header: c('approvedBy'), cell: (item) => fmt.text(item.decidedBy) },
          { key: 'status', header: c('status'), cell: statusCell },
          actions,
        ];

  return (
    <>
      <ListPage<ApplicationListItem>
        title={t(`backOffice.${queue}.title`)}
        queryKey={backOfficeKeys.list(queue)}
        endpoint={`/api/staff/applications/${queue}`}
        search={search}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={820}
      />
      <ProfileModal applicationId={row?.id ?? null} opened={dialog === 'profile'} onClose={close} />
      {canEditTerms ? (
        <>
          <UpdateLoanModal queue={queue} row={row} opened={dialog === 'update'} onClose={close} />
          <WithdrawTermsModal row={row} opened={dialog === 'withdrawTerms'} onClose={close} />
        </>
      ) : null}
      {canDecide && queue === 'pending' ? (
        <>
          <ApproveModal row={row} opened={dialog === 'approve'} onClose={close} />
          <ConfirmApprovalModal row={row} opened={dialog === 'confirm'} onClose={close} />
          <RejectModal row={row} opened={dialog === 'reject'} onClose={close} />
        </>
      ) : null}
    </>
  );
}

export function PendingListPage() {
  return <ApplicationListPage queue="pending" />;
}

export function ApprovedListPage() {
  return <ApplicationListPage queue="approved" />;
}
