import { Button, Group, Loader, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AmountRule } from '../../../domain/loan/terms';
import { parseWholeAmount } from '../../../domain/loan/terms';
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
 * A loan amount in whole pesos for staff (Update Loan, Change Amount), typed freely and never changed behind
 * the user's back (issue #32: 40,000 used to snap to 50,000 on blur and still say "updated"). Once the field
 * is left with an amount staff may not set (off the step, outside the staff range, below what was
 * withdrawn), it says so in SPEC §5's words and offers the nearest amount that is allowed, to take with one
 * click. The loan's current amount is always allowed.
 */
export function StaffAmountField(props: StaffAmountFieldProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { rule } = props;
  const [left, setLeft] = useState(false);
  const pesos = (value: number) => fmt.money(value * MINOR_PER_MAJOR, { omitZeroCents: true });
  const loading = props.withdrawnMinor === undefined;
  const typed = parseWholeAmount(props.value);
  const nearest = clampTypedAmount(props.value, rule, props.withdrawnMinor ?? 0, props.currentAmount ?? null);
  const offer = left && !loading && typed !== null && nearest !== null && nearest !== typed ? nearest : null;
  return (
    <>
      <TextInput
        error={
          offer === null ? undefined : (
            <Group gap="xs" component="span" wrap="wrap" data-testid="amount-offer">
              <span>{t('errors.LOAN_UPDATE_INVALID')}</span>
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => props.onChange(amountInputText(offer))}
              >
                {t('backOffice.update.useNearest', { amount: pesos(offer) })}
              </Button>
            </Group>
          )
        }
        label={props.label}
        description={t(props.hintKey, { min: pesos(rule.min), max: pesos(rule.max), step: pesos(rule.step) })}
        withAsterisk={props.withAsterisk}
        inputMode="numeric"
        autoComplete="off"
        leftSection={<Text size="sm">₱</Text>}
        rightSection={loading ? <Loader size="xs" /> : null}
        value={props.value}
        onChange={(event) => {
          setLeft(false);
          props.onChange(event.currentTarget.value);
        }}
        onBlur={() => setLeft(true)}
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
