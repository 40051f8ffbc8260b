import { describe, expect, it } from 'vitest';
import { applicationInfoFields, applicationInfoSchema } from './application';

const valid = {
  fullName: 'Ana Cruz',
  idNumber: 'N01-23-456789',
  companyName: 'Cruz Bakery',
  position: 'Owner',
  phone: '09171234567',
  income: '45000',
  monthlyExpense: '12000',
  address: '12 Mabini St, Manila',
  email: '',
  contactName: 'Ben Cruz',
  contactPhone: '09181234567',
  contactAddress: '12 Mabini St, Manila',
  contactRelation: 'sibling',
  bankName: 'GCash',
  accountNumber: '09171234567',
};

describe('monthly income and expense follow the one amount rule', () => {
  it.each([
    ['45,000', '45000'],
    ['45 000', '45000'],
    ['៤៥០០០', '45000'],
    ['45000', '45000'],
  ])('%s is read as %s', (typed, digits) => {
    const parsed = applicationInfoSchema.parse({ ...valid, income: typed, monthlyExpense: typed });
    expect(parsed.income).toBe(digits);
    expect(parsed.monthlyExpense).toBe(digits);
  });

  it.each(['45.000', '-45000', '₱45000', 'abc', '45,000.50'])('%s is refused as not digits', (typed) => {
    const result = applicationInfoSchema.safeParse({ ...valid, income: typed });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain('FIELD_DIGITS_ONLY');
  });

  it('an empty income is required, not "not digits"', () => {
    const result = applicationInfoSchema.safeParse({ ...valid, income: '  ' });
    expect(result.error?.issues[0]?.message).toBe('FIELD_REQUIRED');
  });
});

describe('text the database cannot store', () => {
  it.each([
    ['fullName', 'Ana\u0000Cruz'],
    ['address', '12 Mabini \ud800St'],
    ['email', 'ana@example.com\u0000'],
    ['bankName', '\udc00GCash'],
  ])('%s with %j is refused with its own code', (field, value) => {
    const result = applicationInfoSchema.safeParse({ ...valid, [field]: value });
    expect(result.error?.issues.find((i) => i.path[0] === field)?.message).toBe('TEXT_INVALID_CHARACTERS');
  });
});

describe('applicationInfoFields', () => {
  it("names the schema's fields in the schema's order (step 1 reads the list without the schema)", () => {
    expect([...applicationInfoFields]).toEqual(Object.keys(applicationInfoSchema.shape));
  });
});
