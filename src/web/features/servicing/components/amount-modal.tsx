import { Checkbox, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isStaffAmountAllowed, makeStaffLoanUpdateSchema } from '../../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../../domain/money';
import { ReasonModal } from '../../../components/reason-modal';
import { StaffAmountField } from '../../../components/staff/amount-field';
import { amountInputText, useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { loanProductOfProfile, monthlyPaymentFor } from '../../../lib/staff/loan-amount';
import { applicationProfileQuery } from '../../../lib/staff/queries';
import { useChangeLoanAmount } from '../api/servicing';
import { Current, LoanLine, type ServicingModalProps } from './loan-line';

/**
 * Change Amount (officer, admin): the lender's staff range in steps, clamped on blur, never below what is
 * already withdrawn; the term stays and the monthly payment is recomputed by the domain.
 */
export function AmountModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const change = useChangeLoanAmount();
  // The loan's own product version's staff range (docs/decisions/034), from its profile.
  const profile = useQuery({ ...applicationProfileQuery(loan?.id ?? ''), enabled: opened && Boolean(loan) });
  const product = useMemo(() => (profile.data ? loanProductOfProfile(profile.data) : null), [profile.data]);
  const amountSchema = useMemo(
    () => (product ? makeStaffLoanUpdateSchema(product).shape.amount : null),
    [product],
  );
  const withdrawnMinor = profile.data?.withdrawnMinor;
  const currentAmount = loan ? loan.approvedAmountMinor / MINOR_PER_MAJOR : 0;
  const [amountText, setAmountText] = useState('');
  const [borrowerRequested, setBorrowerRequested] = useState(false);
  useEffect(() => {
    if (opened && loan) {
      setAmountText(amountInputText(loan.approvedAmountMinor / MINOR_PER_MAJOR));
      setBorrowerRequested(false);
    }
  }, [opened, loan]);

  const payment =
    profile.data && product
      ? monthlyPaymentFor(
          amountText,
          profile.data.termMonths,
          profile.data.monthlyRateBp,
          product,
          currentAmount,
        )
      : null;

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.amount.title')}
      reasonHint={t('backOffice.terms.shownToBorrower')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Current label={t('servicing.amount.current')}>{fmt.money(loan.approvedAmountMinor)}</Current>
          </LoanLine>
        ) : undefined
      }
      validate={() => {
        if (!profile.data || !amountSchema) return t('common.loading');
        const parsed = amountSchema.safeParse(amountText);
        if (!parsed.success || !product || !isStaffAmountAllowed(parsed.data, currentAmount, product))
          return t('errors.LOAN_UPDATE_INVALID');
        if (parsed.data * MINOR_PER_MAJOR < profile.data.withdrawnMinor)
          return t('errors.AMOUNT_BELOW_WITHDRAWN', { amount: fmt.money(profile.data.withdrawnMinor) });
        if (borrowerRequested && parsed.data >= currentAmount)
          return t('errors.BORROWER_REQUEST_REASON_REQUIRED');
        return null;
      }}
      onConfirm={async (reason) => {
        const parsed = amountSchema?.safeParse(amountText);
        if (!loan || !parsed?.success) return;
        const updated = await change.run({
          id: loan.id,
          amount: parsed.data,
          reason,
          ...(borrowerRequested ? { borrowerRequested: true } : {}),
        });
        if (!updated) return;
        notifySuccess(
          updated.termsChangePending
            ? t('backOffice.update.proposed', {
                loanNumber: loan.loanNumber,
                amount: fmt.money(parsed.data * MINOR_PER_MAJOR),
                months: updated.termMonths,
              })
            : t('servicing.amount.toast', {
                loanNumber: loan.loanNumber,
                amount: fmt.money(parsed.data * MINOR_PER_MAJOR),
              }),
        );
      }}
    >
      {product ? (
        <StaffAmountField
          label={t('servicing.amount.label')}
          hintKey="servicing.amount.hint"
          withdrawnKey="servicing.amount.withdrawn"
          withAsterisk
          rule={product.staffAmount}
          currentAmount={currentAmount}
          withdrawnMinor={withdrawnMinor}
          value={amountText}
          onChange={setAmountText}
        />
      ) : null}
      {profile.data ? (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm">
            {t('servicing.amount.monthlyPayment', {
              term: t('backOffice.common.months', { count: profile.data.termMonths }),
            })}
          </Text>
          <Text fw={700} data-testid="monthly-payment" aria-live="polite">
            {payment === null ? '—' : fmt.money(payment)}
          </Text>
        </Group>
      ) : null}
      <Checkbox
        label={t('backOffice.update.borrowerRequested')}
        description={t('backOffice.update.borrowerRequestedHint')}
        checked={borrowerRequested}
        onChange={(event) => setBorrowerRequested(event.currentTarget.checked)}
      />
    </ReasonModal>
  );
}
