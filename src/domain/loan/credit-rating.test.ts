import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creditRating, creditRatingLabels, creditRingFraction } from './credit-rating';

describe('creditRating', () => {
  it('follows the SPEC §4 boundaries', () => {
    const table: [number, string][] = [
      [Number.NaN, 'pending'],
      [-5, 'pending'],
      [0, 'pending'],
      [0.5, 'pending'],
      [1, 'bad'],
      [400, 'bad'],
      [401, 'good'],
      [500, 'good'],
      [501, 'veryGood'],
      [900, 'veryGood'],
      [901, 'excellent'],
      [5000, 'excellent'],
    ];
    for (const [score, rating] of table) expect(creditRating(score), `score ${score}`).toBe(rating);
  });

  it('never gets worse as the score rises', () => {
    const order = Object.keys(creditRatingLabels);
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 2000 }), fc.integer({ min: 0, max: 1000 }), (score, rise) => {
        expect(order.indexOf(creditRating(score + rise))).toBeGreaterThanOrEqual(
          order.indexOf(creditRating(score)),
        );
      }),
    );
  });

  it('has the SPEC texts', () => {
    expect(creditRatingLabels).toEqual({
      pending: 'Pending approval',
      bad: 'Bad',
      good: 'Good',
      veryGood: 'Very Good',
      excellent: 'Excellent',
    });
  });
});

describe('creditRingFraction', () => {
  it('maps 0–900 onto 0–1 and clamps', () => {
    expect(creditRingFraction(0)).toBe(0);
    expect(creditRingFraction(-10)).toBe(0);
    expect(creditRingFraction(Number.NaN)).toBe(0);
    expect(creditRingFraction(450)).toBe(0.5);
    expect(creditRingFraction(900)).toBe(1);
    expect(creditRingFraction(1200)).toBe(1);
  });
});
