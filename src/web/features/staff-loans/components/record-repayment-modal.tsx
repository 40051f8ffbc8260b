import { Select, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { parsePesosToMinor, recordRepaymentSchema } from '../../../../domain/schemas/repayments';
import { FormModal } from '../../../components/modals';
import { useModalFieldErrors } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { channelLabel } from '../../../lib/payment-channels';
import { useSettings } from '../../../lib/settings';
import { type RecordRepaymentInput, useRecordRepayment } from '../api/loans';

type Field = keyof RecordRepaymentInput;
const fieldNames: readonly Field[] = ['amount', 'receivedOn', 'channel', 'reference'];

export interface RecordRepaymentModalProps {
  opened: boolean;
  onClose: () => void;
  loan: { id: string; loanNumber: string; borrowerName: string; payoffMinor: number };
  /** Today in the lender's time zone (the ledger's `asOf`): the default and the latest date allowed. */
  today: string;
}

/**
 * Record repayment (finance, admin): amount in pesos, date received (today by default, never later),
 * channel (the configured ones) and reference. Each problem, the browser's or the server's, is shown under
 * its field; anything else above the buttons.
 */
export function RecordRepaymentModal({ opened, onClose, loan, today }: RecordRepaymentModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const record = useRecordRepayment(loan.id);
  const channels = useSettings().data?.paymentChannels ?? [];
  const empty: RecordRepaymentInput = { amount: '', receivedOn: today, channel: '', reference: '' };
  const [values, setValues] = useState<RecordRepaymentInput>(empty);
  const { errors, setErrors, issueTexts, show, showRequestError } = useModalFieldErrors(fieldNames);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (opened) {
      setValues({ ...empty, channel: channels.length === 1 ? (channels[0]?.code ?? '') : '' });
      setErrors({});
    }
  }, [opened]);

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      if (!current[field]) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  };
  const r = (key: string, options?: Record<string, unknown>) => t(`staffLoans.record.${key}`, options);

  const validate = () => {
    const found = issueTexts(recordRepaymentSchema.safeParse(values).error?.issues ?? []);
    if (!found.receivedOn && values.receivedOn > today)
      found.receivedOn = t('errors.REPAYMENT_DATE_IN_FUTURE');
    return show(found);
  };

  const submit = async () => {
    const body = { ...values, amount: values.amount.trim(), reference: values.reference.trim() };
    try {
      const result = await record.run(body);
      if (!result) return;
      notifySuccess(
        result.loanStatus === 'closed'
          ? r('closedToast', { loanNumber: loan.loanNumber })
          : r('toast', {
              amount: fmt.money(parsePesosToMinor(body.amount)),
              loanNumber: loan.loanNumber,
            }),
      );
    } catch (error) {
      // A problem with one field is shown under it; the modal stays open.
      return showRequestError(error);
    }
  };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={r('title')}
      confirmLabel={r('confirm')}
      validate={validate}
      onConfirm={submit}
    >
      <Text size="sm">
        {r('description', {
          loanNumber: loan.loanNumber,
          name: loan.borrowerName,
          payoff: fmt.money(loan.payoffMinor),
        })}
      </Text>
      <TextInput
        label={r('amount')}
        description={r('amountHint')}
        withAsterisk
        inputMode="decimal"
        autoComplete="off"
        maxLength={20}
        value={values.amount}
        error={errors.amount}
        data-autofocus
        onChange={(event) => set('amount', event.currentTarget.value)}
      />
      <TextInput
        type="date"
        label={r('receivedOn')}
        description={r('receivedOnHint', { date: fmt.calendarDate(today) })}
        withAsterisk
        max={today}
        value={values.receivedOn}
        error={errors.receivedOn}
        onChange={(event) => set('receivedOn', event.currentTarget.value)}
      />
      <Select
        label={r('channel')}
        placeholder={r('channelPlaceholder')}
        withAsterisk
        data={channels.map((channel) => ({ value: channel.code, label: channelLabel(channel, t) }))}
        value={values.channel || null}
        error={errors.channel}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        onChange={(value) => set('channel', value ?? '')}
      />
      <TextInput
        label={r('reference')}
        description={r('referenceHint')}
        withAsterisk
        autoComplete="off"
        maxLength={limits.repaymentReference}
        value={values.reference}
        error={errors.reference}
        onChange={(event) => set('reference', event.currentTarget.value)}
      />
    </FormModal>
  );
}
