import { Alert, Text, TextInput } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normaliseLoanReference } from '../../../../domain/loan/loan-number';
import { limits } from '../../../../domain/schemas/limits';
import { FormModal } from '../../../components/modals';
import { ApiError } from '../../../lib/api';
import { translateError } from '../../../lib/error-text';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useApplyUnappliedPayment } from '../api/unapplied';
import { PaymentLine, type PaymentModalProps } from './payment-line';
import { useSuggestionWhy } from './suggestion-cell';

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

/**
 * Apply to loan: the kept payment becomes a repayment of the loan whose number finance types, written any
 * way (HL26000123 reads as HL-26-000123, said under the field). Opened from a suggestion (`suggested`), the
 * suggested loan is filled in, with who it is and why; finance still confirms, and may type another.
 */
export function ApplyPaymentModal({
  row,
  opened,
  onClose,
  suggested = false,
}: PaymentModalProps & { suggested?: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const why = useSuggestionWhy();
  const apply = useApplyUnappliedPayment();
  const [loan, setLoan] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const suggestion = suggested ? (row?.suggestion ?? null) : null;
  useEffect(() => {
    if (opened) {
      setLoan(suggestion?.loanNumber ?? '');
      setFieldError(null);
    }
  }, [opened, suggestion?.loanNumber]);
  const reads = normaliseLoanReference(loan);

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
        try {
          const applied = await apply.run({ id: row.id, loan: loan.trim() });
          if (applied)
            notifySuccess(
              t(
                applied.loanStatus === 'closed'
                  ? 'collections.unapplied.apply.toastClosed'
                  : 'collections.unapplied.apply.toast',
                {
                  amount: fmt.money(row.amountMinor),
                  loanNumber: applied.loanNumber ?? reads ?? loan.trim().toUpperCase(),
                },
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
          {suggestion ? (
            <Alert color="blue" variant="light" icon={<IconBulb size={18} />} p="sm">
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {t('collections.unapplied.suggestion.suggested', {
                  loanNumber: suggestion.loanNumber,
                  name: suggestion.fullName,
                })}
              </Text>
              <Text size="sm">{why(suggestion)}</Text>
              <Text size="xs" mt={4}>
                {t('collections.unapplied.suggestion.check')}
              </Text>
            </Alert>
          ) : null}
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
            description={
              reads && reads !== loan.trim()
                ? t('collections.unapplied.suggestion.reads', { loanNumber: reads })
                : undefined
            }
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
