import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatMessage } from './errors';
import { fieldKeys, fieldNames, fieldNamingCodes, isFieldKey } from './field-names';
import { applicationInfoSchema } from './schemas/application';
import { complaintReplySchema, complaintResolveSchema, fileComplaintSchema } from './schemas/complaints';
import { productStatusChangeSchema } from './schemas/products';
import { recordRepaymentSchema } from './schemas/repayments';
import { passkeyRegistrationSchema } from './schemas/second-factor';
import { bankDetailsSchema, holdSchema, listQuerySchema, messageSchema, rejectSchema } from './schemas/staff';
import { markPaidSchema } from './schemas/wallet';
import { issuesToAppError } from './validation';

const long = 'x'.repeat(20_000);

/** Every input schema with a field an error names, given input that makes each such field fail. */
const failing: [string, z.ZodType, unknown][] = [
  ['application (empty)', applicationInfoSchema, {}],
  [
    'application (too long, not digits)',
    applicationInfoSchema,
    Object.fromEntries(
      ['fullName', 'idNumber', 'companyName', 'position', 'address', 'contactName', 'contactAddress']
        .map((key) => [key, long])
        .concat([
          ['income', '1a'],
          ['monthlyExpense', '1a'],
          ['contactPhone', 'x'],
          ['bankName', long],
          ['accountNumber', 'x'],
        ]),
    ),
  ],
  ['hold', holdSchema, { action: 'hold', message: long, reason: 'r' }],
  ['bank details (empty)', bankDetailsSchema, { bankName: '', accountNumber: '', reason: 'r' }],
  ['bank details (bad)', bankDetailsSchema, { bankName: long, accountNumber: 'x', reason: 'r' }],
  ['message', messageSchema, { message: '', reason: 'r' }],
  ['message (long)', messageSchema, { message: long, reason: 'r' }],
  ['reject', rejectSchema, { reason: long }],
  ['list search', listQuerySchema, { phone: 'abc' }],
  ['complaint', fileComplaintSchema, { category: 'other', text: long }],
  ['complaint reply', complaintReplySchema, { message: long }],
  ['complaint resolution', complaintResolveSchema, { note: long }],
  ['payout reference', markPaidSchema, { reference: long }],
  [
    'repayment reference',
    recordRepaymentSchema,
    { amount: '1', receivedOn: '2026-01-01', channel: 'cash', reference: long },
  ],
  ['passkey', passkeyRegistrationSchema, { name: long, response: { id: 'a', type: 'public-key' } }],
  ['product status', productStatusChangeSchema, { basedOnVersion: 1, reason: long }],
];

describe('field names (issue #36)', () => {
  it('has the same keys, none empty, in every language', () => {
    for (const names of Object.values(fieldNames)) {
      expect(Object.keys(names).sort()).toEqual([...fieldKeys].sort());
      expect(Object.values(names).filter((name) => !name.trim())).toEqual([]);
    }
  });

  it.each(failing)(
    '%s: every error that names a field carries a known key, never a label',
    (_, schema, input) => {
      const parsed = schema.safeParse(input);
      expect(parsed.success).toBe(false);
      const error = issuesToAppError(parsed.error?.issues ?? [], 'VALIDATION_FAILED');
      const naming = Object.entries(error.fields).filter(([, field]) =>
        (fieldNamingCodes as readonly string[]).includes(field.code),
      );
      expect(naming.length).toBeGreaterThan(0);
      for (const [key, field] of naming) {
        const fieldKey = key.split('.').at(-1);
        expect(isFieldKey(fieldKey), key).toBe(true);
        expect(field.params).toEqual({ fieldKey });
        // The English message (for API clients) names it in English, with nothing left unfilled.
        expect(field.message).toContain(fieldNames.en[fieldKey as keyof typeof fieldNames.en]);
        expect(field.message).not.toContain('{');
      }
    },
  );

  it('names the field of a form-level "{field} is too long" too', () => {
    const parsed = rejectSchema.safeParse({ reason: long });
    const error = issuesToAppError(parsed.error?.issues ?? [], 'VALIDATION_FAILED');
    expect(error.toBody().error).toMatchObject({
      code: 'FIELD_TOO_LONG',
      message: 'Reason is too long',
      params: { fieldKey: 'reason' },
    });
    expect(formatMessage('FIELD_DIGITS_ONLY', { fieldKey: 'contactPhone' })).toBe(
      'Contact Phone must be digits only',
    );
  });
});
