import { Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconBuildingBank,
  IconCoin,
  IconGauge,
  IconKey,
  IconLanguage,
  IconMessage,
  IconPlayerPause,
  IconUser,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { creditRating } from '../../../../domain/loan/credit-rating';
import type { ServicingItem } from '../../../../domain/schemas/staff';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import { nameAndPhoneSearch } from '../../../components/lists/search-bar';
import { ProfileModal } from '../../../components/staff/profile-modal';
import { LoanStateCell } from '../../../components/staff/terms-change';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { AmountModal } from './amount-modal';
import { BankDetailsModal } from './bank-details-modal';
import { ChangeStatusModal } from './change-status-modal';
import { CreditScoreModal } from './credit-score-modal';
import { LanguageModal } from './language-modal';
import { MessageModal } from './message-modal';
import { ResetPasswordModal } from './reset-password-modal';
import { type ServicingAction, servicingActionsFor } from './servicing-actions';

const icons: Record<ServicingAction, ReactNode> = {
  profile: <IconUser size={16} />,
  status: <IconPlayerPause size={16} />,
  bankDetails: <IconBuildingBank size={16} />,
  creditScore: <IconGauge size={16} />,
  resetPassword: <IconKey size={16} />,
  amount: <IconCoin size={16} />,
  message: <IconMessage size={16} />,
  language: <IconLanguage size={16} />,
};

/** Loan Servicing (SPEC §2.7): running loans, and the changes each role may make, each with a reason. */
export function ServicingPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const user = useCurrentUser();
  const actions = servicingActionsFor(user.role);
  // The row stays set while a modal closes, so its content does not vanish mid-animation.
  const [dialog, setDialog] = useState<ServicingAction | null>(null);
  const [row, setRow] = useState<ServicingItem | null>(null);
  const close = () => setDialog(null);

  const c = (key: string) => t(`backOffice.columns.${key}`);
  const search = nameAndPhoneSearch(t);

  const columns: Column<ServicingItem>[] = [
    ...borrowerColumns<ServicingItem>(t, fmt, { loanId: (item) => item.id }),
    {
      key: 'amount',
      header: c('amount'),
      align: 'right',
      cell: (item) => fmt.money(item.approvedAmountMinor, { omitZeroCents: true }),
    },
    {
      key: 'creditScore',
      header: t('servicing.columns.creditScore'),
      cell: (item) =>
        item.creditScore === null ? (
          fmt.na
        ) : (
          <Stack gap={0}>
            <Text span size="sm">
              {fmt.number(item.creditScore)}
            </Text>
            <Text span size="xs" c="dimmed">
              {t(`backOffice.rating.${creditRating(item.creditScore)}`)}
            </Text>
          </Stack>
        ),
    },
    {
      key: 'dateApproved',
      header: c('dateApproved'),
      cell: (item) => (
        <Text span size="sm" title={fmt.dateTime(item.decidedAt)}>
          {fmt.date(item.decidedAt)}
        </Text>
      ),
    },
    {
      key: 'available',
      header: t('servicing.columns.available'),
      align: 'right',
      cell: (item) => fmt.money(item.availableMinor, { omitZeroCents: true }),
    },
    {
      key: 'status',
      header: c('status'),
      cell: (item) => (
        <LoanStateCell
          termsChangePending={item.termsChangePending}
          status={
            item.status === 'on_hold' && item.statusMessage ? (
              // The message the borrower sees, on hover (and read out by screen readers).
              <Tooltip label={item.statusMessage} multiline maw={320} withArrow>
                {/* relative: the visually hidden text must stay inside the table's scroll area */}
                <span style={{ position: 'relative', display: 'inline-block' }}>
                  <StatusBadge status={item.status} />
                  <VisuallyHidden>{item.statusMessage}</VisuallyHidden>
                </span>
              </Tooltip>
            ) : (
              <StatusBadge status={item.status} />
            )
          }
        />
      ),
    },
    actionsColumn<ServicingItem>(
      c('action'),
      (item) => item.loanNumber,
      (item) =>
        actions.map((action) => ({
          key: action,
          label: t(`servicing.actions.${action}`),
          icon: icons[action],
          color: action === 'resetPassword' ? 'red' : undefined,
          onClick: () => {
            setRow(item);
            setDialog(action);
          },
        })),
    ),
  ];

  const can = (action: ServicingAction) => actions.includes(action);
  return (
    <>
      <ListPage<ServicingItem>
        title={t('servicing.title')}
        queryKey={backOfficeKeys.list('servicing')}
        endpoint="/api/staff/loans"
        search={search}
        columns={columns}
        rowKey={(item) => item.id}
        tableMinWidth={960}
      />
      <ProfileModal applicationId={row?.id ?? null} opened={dialog === 'profile'} onClose={close} />
      {can('status') ? <ChangeStatusModal loan={row} opened={dialog === 'status'} onClose={close} /> : null}
      {can('bankDetails') ? (
        <BankDetailsModal loan={row} opened={dialog === 'bankDetails'} onClose={close} />
      ) : null}
      {can('creditScore') ? (
        <CreditScoreModal loan={row} opened={dialog === 'creditScore'} onClose={close} />
      ) : null}
      {can('amount') ? <AmountModal loan={row} opened={dialog === 'amount'} onClose={close} /> : null}
      {can('message') ? <MessageModal loan={row} opened={dialog === 'message'} onClose={close} /> : null}
      {can('language') ? <LanguageModal loan={row} opened={dialog === 'language'} onClose={close} /> : null}
      {can('resetPassword') ? (
        <ResetPasswordModal loan={row} opened={dialog === 'resetPassword'} onClose={close} />
      ) : null}
    </>
  );
}
