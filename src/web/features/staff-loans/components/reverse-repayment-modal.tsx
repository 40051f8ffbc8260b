import { useTranslation } from 'react-i18next';
import type { LoanStatus } from '../../../../domain/loan/status';
import { ReasonModal } from '../../../components/reason-modal';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useReverseRepayment } from '../api/loans';
import type { LedgerRepayment } from './repayment-ledger';

export interface ReverseRepaymentModalProps {
  opened: boolean;
  onClose: () => void;
  loan: { id: string; loanNumber: string; status: LoanStatus };
  /** Stays set while the modal closes, so its text does not vanish mid-animation. */
  repayment: LedgerRepayment | null;
}

/** Reverse (finance, admin): the record stays, with a required reason; a closed loan may reopen. */
export function ReverseRepaymentModal({ opened, onClose, loan, repayment }: ReverseRepaymentModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const reverse = useReverseRepayment(loan.id);
  const v = (key: string, options?: Record<string, unknown>) => t(`staffLoans.reverse.${key}`, options);
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={v('title')}
      description={
        repayment
          ? v('description', {
              amount: fmt.money(repayment.amountMinor),
              date: fmt.calendarDate(repayment.receivedOn),
              reference: repayment.reference,
              loanNumber: loan.loanNumber,
            })
          : undefined
      }
      reasonLabel={v('reason')}
      confirmLabel={v('confirm')}
      confirmColor="red"
      onConfirm={async (reason) => {
        if (!repayment) return;
        const result = await reverse.run({ id: repayment.id, reason });
        if (!result) return;
        notifySuccess(
          loan.status === 'closed' && result.loanStatus !== 'closed'
            ? v('reopenedToast', { loanNumber: loan.loanNumber })
            : v('toast', { reference: repayment.reference }),
        );
      }}
    />
  );
}
