import { Checkbox, Group, Paper, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isStaffAmountAllowed, makeStaffLoanUpdateSchema } from '../../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../../domain/money';
import { limits } from '../../../../domain/schemas/limits';
import type { ApplicationListItem } from '../../../../domain/schemas/staff';
import { InlineLoading } from '../../../components/load-state';
import { FormModal } from '../../../components/modals';
import { StaffAmountField } from '../../../components/staff/amount-field';
import { amountInputText, useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { loanProductOfProfile, monthlyPaymentFor } from '../../../lib/staff/loan-amount';
import { applicationProfileQuery } from '../../../lib/staff/queries';
import { tintedBackground } from '../../../lib/styles/tint';
import { type LoanQueue, useUpdateLoanTerms } from '../api/applications';

export interface UpdateLoanModalProps {
  queue: LoanQueue;
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Update Loan (SPEC §2.7; docs/decisions/018: new terms go to the borrower to accept, unless a lower amount
 * the borrower asked for): the current amount, or a new one in the lender's staff range (never changed silently:
 * the field offers the nearest allowed amount), and term, with the monthly
 * payment recomputed live by the domain. On an approved loan the amount never goes below what was withdrawn.
 */
export function UpdateLoanModal({ queue, row, opened, onClose }: UpdateLoanModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const update = useUpdateLoanTerms();
  // The profile tells the loan's own rate, its product version's staff range and terms (docs/decisions/034)
  // and, for approved loans, what was already withdrawn.
  const profile = useQuery({ ...applicationProfileQuery(row?.id ?? ''), enabled: opened && Boolean(row) });
  const product = useMemo(() => (profile.data ? loanProductOfProfile(profile.data) : null), [profile.data]);
  const updateSchema = useMemo(() => (product ? makeStaffLoanUpdateSchema(product) : null), [product]);
  const rateBp = profile.data?.monthlyRateBp;
  const withdrawnMinor = queue === 'approved' ? profile.data?.withdrawnMinor : 0;

  const currentAmount = row ? (row.approvedAmountMinor ?? row.amountMinor) / MINOR_PER_MAJOR : 0;
  const [amountText, setAmountText] = useState('');
  const [termMonths, setTermMonths] = useState(0);
  const [reason, setReason] = useState('');
  const [borrowerRequested, setBorrowerRequested] = useState(false);
  useEffect(() => {
    if (opened && row) {
      setAmountText(amountInputText(currentAmount));
      setTermMonths(row.termMonths);
      setReason('');
      setBorrowerRequested(false);
    }
  }, [opened, row, currentAmount]);

  const payment =
    product && rateBp !== undefined
      ? monthlyPaymentFor(amountText, termMonths, rateBp, product, currentAmount)
      : null;

  const validate = () => {
    const parsed = updateSchema?.safeParse({ amount: amountText, termMonths });
    // A changed amount must be in the staff range; the current one may stay (domain rule, as the server's).
    if (!parsed?.success || !product || !isStaffAmountAllowed(parsed.data.amount, currentAmount, product))
      return t('errors.LOAN_UPDATE_INVALID');
    if (parsed.data.amount * MINOR_PER_MAJOR < (withdrawnMinor ?? 0))
      return t('errors.AMOUNT_BELOW_WITHDRAWN', { amount: fmt.money(withdrawnMinor) });
    // Applied at once only for a lower amount, same term, with a reason (docs/decisions/018).
    if (
      borrowerRequested &&
      (!reason.trim() || parsed.data.amount >= currentAmount || termMonths !== row?.termMonths)
    )
      return t('errors.BORROWER_REQUEST_REASON_REQUIRED');
    return null;
  };

  const save = async () => {
    const parsed = updateSchema?.safeParse({ amount: amountText, termMonths });
    if (!row || !parsed?.success) return;
    const updated = await update.run({
      queue,
      id: row.id,
      ...parsed.data,
      ...(reason.trim() ? { reason: reason.trim() } : {}),
      ...(borrowerRequested ? { borrowerRequested: true } : {}),
    });
    if (!updated) return;
    // Say what was saved, from the server's answer (applied) or what was proposed to the borrower.
    const saved = updated.termsChangePending
      ? { amountMinor: parsed.data.amount * MINOR_PER_MAJOR, termMonths: parsed.data.termMonths }
      : { amountMinor: updated.approvedAmountMinor ?? updated.amountMinor, termMonths: updated.termMonths };
    notifySuccess(
      t(updated.termsChangePending ? 'backOffice.update.proposed' : 'backOffice.update.success', {
        loanNumber: row.loanNumber,
        amount: fmt.money(saved.amountMinor),
        months: saved.termMonths,
        payment: fmt.money(updated.monthlyPaymentMinor),
      }),
    );
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('backOffice.update.title')}
      confirmLabel={t('backOffice.update.save')}
      confirmDisabled={!product || withdrawnMinor === undefined}
      validate={validate}
      onConfirm={save}
    >
      {row && product ? (
        <>
          <Text size="sm">
            {t('backOffice.update.description', { loanNumber: row.loanNumber, name: row.fullName })}
          </Text>
          <StaffAmountField
            label={t('backOffice.update.amount')}
            hintKey="backOffice.update.amountHint"
            withdrawnKey={queue === 'approved' ? 'backOffice.update.withdrawn' : undefined}
            rule={product.staffAmount}
            currentAmount={currentAmount}
            withdrawnMinor={withdrawnMinor}
            value={amountText}
            onChange={setAmountText}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('backOffice.update.term')}
            </Text>
            <SegmentedControl
              fullWidth
              value={String(termMonths)}
              onChange={(value) => setTermMonths(Number(value))}
              data={product.termsMonths.map((months) => ({
                value: String(months),
                label: t('backOffice.common.months', { count: months }),
              }))}
              aria-label={t('backOffice.update.term')}
            />
          </Stack>
          <Paper withBorder p="sm" radius="md" bg={tintedBackground}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm">{t('backOffice.update.monthlyPayment')}</Text>
              <Text fw={700} size="lg" data-testid="monthly-payment" aria-live="polite">
                {payment === null ? '—' : fmt.money(payment)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {t('backOffice.update.rateNote', { rate: fmt.percent((rateBp ?? 0) / 10_000) })}
            </Text>
          </Paper>
          <Checkbox
            label={t('backOffice.update.borrowerRequested')}
            description={t('backOffice.update.borrowerRequestedHint')}
            checked={borrowerRequested}
            onChange={(event) => setBorrowerRequested(event.currentTarget.checked)}
          />
          <Textarea
            label={t('backOffice.update.reason')}
            description={t('backOffice.update.reasonHint')}
            autosize
            minRows={2}
            maxRows={5}
            maxLength={limits.reason}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </>
      ) : (
        <InlineLoading />
      )}
    </FormModal>
  );
}
