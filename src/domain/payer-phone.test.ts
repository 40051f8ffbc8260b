import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payerPhoneForms } from './payer-phone';

describe('payerPhoneForms', () => {
  it.each([
    '09171234567',
    '+63 917 123 4567',
    '639171234567',
    '9171234567',
    '(0917) 123-4567',
    '+63-917-123-4567',
  ])('reads the mobile %j in its stored forms', (raw) => {
    expect(payerPhoneForms(raw)).toEqual(['09171234567', '639171234567', '9171234567']);
  });

  it('keeps another number of 10 to 15 digits as it is, and nothing else', () => {
    expect(payerPhoneForms('0281234567')).toEqual(['0281234567']);
    expect(payerPhoneForms('+1 415 555 0100')).toEqual(['14155550100']);
    for (const bad of ['', '123', 'GCash', '0917 123 4567 ext 2', '1'.repeat(16), null, undefined]) {
      expect(payerPhoneForms(bad), String(bad)).toEqual([]);
    }
  });

  it('never throws; every form is digits only', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (raw) => {
        for (const form of payerPhoneForms(raw)) expect(form).toMatch(/^\d{10,15}$/);
      }),
    );
  });
});
