import { NumberInput, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { creditRating } from '../../../domain/loan/credit-rating';
import { limits } from '../../../domain/schemas/limits';
import { creditScoreSchema } from '../../../domain/schemas/staff';

export interface CreditScoreInputProps {
  label: string;
  hint: string;
  /** Locale key of the live rating line; it receives `rating`. */
  ratingKey: string;
  value: string | number;
  onChange: (value: string | number) => void;
  withAsterisk?: boolean;
  autoFocus?: boolean;
}

/** A credit score in the domain's range with its rating ("Good", "Excellent"…) shown live under it. */
export function CreditScoreInput(props: CreditScoreInputProps) {
  const { t } = useTranslation();
  const parsed = creditScoreSchema.safeParse(props.value === '' ? undefined : props.value);
  const rating = parsed.success ? t(`backOffice.rating.${creditRating(parsed.data)}`) : '—';
  return (
    <>
      <NumberInput
        label={props.label}
        description={props.hint}
        withAsterisk={props.withAsterisk}
        min={limits.creditScore.min}
        max={limits.creditScore.max}
        step={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={props.value}
        onChange={props.onChange}
        data-autofocus={props.autoFocus || undefined}
      />
      <Text size="sm" data-testid="credit-rating" aria-live="polite">
        {t(props.ratingKey, { rating })}
      </Text>
    </>
  );
}
