import { Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromMinorToMajorString } from '../../../../domain/money';
import { limits } from '../../../../domain/schemas/limits';
import { parsePesosToMinor, refundCreditSchema } from '../../../../domain/schemas/repayments';
import { FormModal } from '../../../components/modals';
import { useModalFieldErrors } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useRefundCredit } from '../api/loans';

type Field = 'amount' | 'reference';
const fieldNames: readonly Field[] = ['amount', 'reference'];

export interface RefundCreditModalProps {
  opened: boolean;
  onClose: () => void;
  loan: { id: string; loanNumber: string; creditMinor: number };
}

/**
 * Refund (finance, admin): money received above the payoff is held for the borrower until it is sent back;
 * this records the transfer — how much (at most what is held) and its reference. Problems show under their
 * field, the server's too.
 */
export function RefundCreditModal({ opened, onClose, loan }: RefundCreditModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const refund = useRefundCredit(loan.id);
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const { errors, setErrors, issueTexts, show, showRequestError } = useModalFieldErrors(fieldNames);
  const r = (key: string, options?: Record<string, unknown>) => t(`staffLoans.refund.${key}`, options);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form (the whole credit) each time it opens
  useEffect(() => {
    if (opened) {
      setAmount(fromMinorToMajorString(loan.creditMinor));
      setReference('');
      setErrors({});
    }
  }, [opened]);

  const validate = () =>
    show(issueTexts(refundCreditSchema.safeParse({ amount, reference }).error?.issues ?? []));

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={r('title')}
      confirmLabel={r('confirm')}
      validate={validate}
      onConfirm={async () => {
        const body = { amount: amount.trim(), reference: reference.trim() };
        try {
          const done = await refund.run(body);
          if (done)
            notifySuccess(
              r('toast', { amount: fmt.money(parsePesosToMinor(body.amount)), loanNumber: loan.loanNumber }),
            );
        } catch (error) {
          // A problem with one field (more than is held, a reference already used) is shown under it.
          return showRequestError(error);
        }
      }}
    >
      <Text size="sm">
        {r('description', { amount: fmt.money(loan.creditMinor), loanNumber: loan.loanNumber })}
      </Text>
      <TextInput
        label={r('amount')}
        withAsterisk
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        error={errors.amount}
        onChange={(event) => setAmount(event.currentTarget.value)}
      />
      <TextInput
        label={r('reference')}
        description={r('referenceHelp')}
        withAsterisk
        autoComplete="off"
        maxLength={limits.repaymentReference}
        value={reference}
        error={errors.reference}
        data-autofocus
        onChange={(event) => setReference(event.currentTarget.value)}
      />
    </FormModal>
  );
}
