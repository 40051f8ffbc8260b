import { Badge, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useWithdrawTermsChange } from '../../lib/staff/terms-change';
import { ReasonModal } from '../reason-modal';

/** A badge whose sentence wraps instead of being cut off with an ellipsis. */
const wrapping = {
  root: { textTransform: 'none', height: 'auto', maxWidth: 220, paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 },
} as const;

/**
 * The status cell of a loan list: its status, and under it what it waits for (docs/decisions/018): the
 * borrower's acceptance of new terms, or a second staff member's approval.
 */
export function LoanStateCell(props: {
  status: ReactNode;
  termsChangePending: boolean;
  firstApprovedBy?: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} align="flex-start">
      {props.status}
      {props.termsChangePending ? (
        <Badge color="blue.9" variant="light" radius="sm" styles={wrapping}>
          {t('backOffice.terms.waiting')}
        </Badge>
      ) : null}
      {props.firstApprovedBy ? (
        <Badge color="grape.9" variant="light" radius="sm" styles={wrapping}>
          {t('backOffice.fourEyes.awaiting', { name: props.firstApprovedBy })}
        </Badge>
      ) : null}
    </Stack>
  );
}

/** Withdraw the new terms proposed to the borrower, with a reason the borrower will read. */
export function WithdrawTermsModal(props: {
  row: { id: string; loanNumber: string } | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const withdraw = useWithdrawTermsChange();
  return (
    <ReasonModal
      opened={props.opened}
      onClose={props.onClose}
      title={t('backOffice.terms.withdrawTitle')}
      description={
        props.row ? t('backOffice.terms.withdrawDescription', { loanNumber: props.row.loanNumber }) : ''
      }
      reasonHint={t('backOffice.terms.shownToBorrower')}
      confirmLabel={t('backOffice.terms.withdraw')}
      onConfirm={async (reason) => {
        if (!props.row) return;
        const done = await withdraw.run({ id: props.row.id, reason });
        if (done) notifySuccess(t('backOffice.terms.withdrawn', { loanNumber: props.row.loanNumber }));
      }}
    />
  );
}
