import { Loader, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AmountRule } from '../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../domain/money';
import { amountInputText, useFormat } from '../../lib/format';
import { clampTypedAmount, minimumAmountCovering } from '../../lib/staff/loan-amount';

export interface StaffAmountFieldProps {
  label: string;
  /** Locale key of the range hint; it receives `min`, `max` and `step`. */
  hintKey: string;
  /** Locale key of the "already withdrawn" note (it receives `amount` and `minimum`); none when omitted. */
  withdrawnKey?: string | undefined;
  /** The staff amount range from the lender's settings. */
  rule: AmountRule;
  /** Already withdrawn: the amount never goes below it; undefined while it is loading. */
  withdrawnMinor: number | undefined;
  value: string;
  onChange: (text: string) => void;
  withAsterisk?: boolean;
  /** The loan's amount now (whole pesos): kept as it is on blur, even below the staff minimum. */
  currentAmount?: number | undefined;
}

/**
 * A loan amount in whole pesos for staff (Update Loan, Change Amount): typed freely; on blur the loan's
 * current amount stays, and any other amount is snapped to a step and clamped to the staff range, never
 * below what was already withdrawn.
 */
export function StaffAmountField(props: StaffAmountFieldProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { rule } = props;
  const pesos = (value: number) => fmt.money(value * MINOR_PER_MAJOR, { omitZeroCents: true });
  const loading = props.withdrawnMinor === undefined;
  return (
    <>
      <TextInput
        label={props.label}
        description={t(props.hintKey, { min: pesos(rule.min), max: pesos(rule.max), step: pesos(rule.step) })}
        withAsterisk={props.withAsterisk}
        inputMode="numeric"
        autoComplete="off"
        leftSection={<Text size="sm">₱</Text>}
        rightSection={loading ? <Loader size="xs" /> : null}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        onBlur={() => {
          const clamped = clampTypedAmount(
            props.value,
            rule,
            props.withdrawnMinor ?? 0,
            props.currentAmount ?? null,
          );
          if (clamped !== null) props.onChange(amountInputText(clamped));
        }}
      />
      {props.withdrawnKey ? (
        <Text size="sm" c="dimmed" data-testid="withdrawn-note">
          {props.withdrawnMinor === undefined
            ? t('common.loading')
            : t(props.withdrawnKey, {
                amount: fmt.money(props.withdrawnMinor),
                minimum: pesos(minimumAmountCovering(props.withdrawnMinor, rule)),
              })}
        </Text>
      ) : null}
    </>
  );
}
