import { Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { FormModal } from '../../../components/modals';
import { ApiError } from '../../../lib/api';
import { translateError } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useApplyUnappliedPayment } from '../api/unapplied';
import { PaymentLine, type PaymentModalProps } from './payment-line';

/**
 * Answers about the loan that was typed: shown under the loan number field, so finance can correct it
 * and try again (anything else shows above the buttons).
 */
const loanFieldCodes: readonly string[] = [
  'LOAN_NOT_FOUND',
  'LOAN_NOT_REPAYING',
  'REPAYMENT_DATE_BEFORE_PAYOUT',
  'REPAYMENT_REFERENCE_USED',
];

/** Apply to loan: the kept payment becomes a repayment of the loan whose number finance types. */
export function ApplyPaymentModal({ row, opened, onClose }: PaymentModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const apply = useApplyUnappliedPayment();
  const [loan, setLoan] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setLoan('');
      setFieldError(null);
    }
  }, [opened]);

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('collections.unapplied.apply.title')}
      confirmLabel={t('collections.unapplied.apply.confirm')}
      validate={() => {
        if (loan.trim()) return null;
        setFieldError(t('errors.LOAN_NOT_FOUND'));
        return true;
      }}
      onConfirm={async () => {
        if (!row) return;
        const loanNumber = loan.trim().toUpperCase();
        try {
          const applied = await apply.run({ id: row.id, loan: loan.trim() });
          if (applied)
            notifySuccess(
              t(
                applied.loanStatus === 'closed'
                  ? 'collections.unapplied.apply.toastClosed'
                  : 'collections.unapplied.apply.toast',
                { amount: fmt.money(row.amountMinor), loanNumber },
              ),
            );
        } catch (error) {
          if (error instanceof ApiError && (error.fields.loan || loanFieldCodes.includes(error.code))) {
            setFieldError(translateError(t, error));
            return false;
          }
          throw error;
        }
      }}
    >
      {row ? (
        <>
          <PaymentLine row={row} />
          <Text size="sm" c="dimmed">
            {t('collections.unapplied.apply.help')}
          </Text>
          <TextInput
            label={t('collections.unapplied.apply.loan')}
            placeholder={t('collections.unapplied.apply.loanPlaceholder')}
            withAsterisk
            autoComplete="off"
            maxLength={limits.repaymentReference}
            value={loan}
            error={fieldError}
            data-autofocus
            onChange={(event) => {
              setLoan(event.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
          />
        </>
      ) : null}
    </FormModal>
  );
}
