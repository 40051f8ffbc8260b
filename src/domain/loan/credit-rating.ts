/** SPEC §4 rating bands for a credit score; English texts for reference (the web translates the key). */
export const creditRatingLabels = {
  pending: 'Pending approval',
  bad: 'Bad',
  good: 'Good',
  veryGood: 'Very Good',
  excellent: 'Excellent',
} as const;

export type CreditRating = keyof typeof creditRatingLabels;

/** The ring on /account is drawn on a 0–900 scale. */
export const CREDIT_RING_MAX = 900;

/** Bands by upper bound, so a fractional score between bands falls into the higher one. */
export function creditRating(score: number): CreditRating {
  if (!(score >= 1)) return 'pending'; // also NaN: no score yet
  if (score <= 400) return 'bad';
  if (score <= 500) return 'good';
  if (score <= 900) return 'veryGood';
  return 'excellent';
}

/** Share of the ring to fill, 0–1; scores above 900 fill it, missing or negative scores leave it empty. */
export function creditRingFraction(score: number): number {
  if (!(score > 0)) return 0;
  return Math.min(score, CREDIT_RING_MAX) / CREDIT_RING_MAX;
}
