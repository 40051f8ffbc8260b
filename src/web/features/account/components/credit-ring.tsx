import { Badge, Box, RingProgress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CREDIT_RING_MAX,
  type CreditRating,
  creditRating,
  creditRingFraction,
} from '../../../../domain/loan/credit-rating';
import { useCountUp } from '../lib/use-count-up';

const ratingColors: Record<CreditRating, string> = {
  pending: 'gray',
  bad: 'red',
  good: 'orange',
  veryGood: 'teal',
  excellent: 'green',
};

/**
 * The credit score on a 0–900 ring (SPEC §2.6) with the §4 rating text. The number counts up; screen
 * readers get the final figures once instead of every step.
 */
export function CreditRing(props: { score: number | null }) {
  const { t } = useTranslation();
  const score = props.score;
  const shown = useCountUp(Math.max(0, score ?? 0));
  const rating = creditRating(score ?? Number.NaN);
  const label = t(`account.rating.${rating}`);
  const color = ratingColors[rating];

  return (
    <Stack align="center" gap="xs">
      <Box
        role="img"
        aria-label={t('account.rating.summary', {
          score: score ?? '-',
          max: CREDIT_RING_MAX,
          rating: label,
        })}
      >
        <RingProgress
          size={196}
          thickness={16}
          roundCaps
          transitionDuration={0}
          sections={[{ value: creditRingFraction(shown) * 100, color }]}
          label={
            <Stack gap={2} align="center" aria-hidden="true">
              <Text
                fz={44}
                fw={800}
                lh={1}
                data-testid="credit-score"
                style={{ fontVariantNumeric: 'tabular-nums' }}
              >
                {score === null ? '-' : shown}
              </Text>
              <Text size="xs" c="dimmed">
                {t('account.rating.outOf', { max: CREDIT_RING_MAX })}
              </Text>
            </Stack>
          }
        />
      </Box>
      <Badge
        size="lg"
        variant="light"
        color={color}
        tt="none"
        data-testid="credit-rating"
        data-rating={rating}
      >
        {label}
      </Badge>
    </Stack>
  );
}
