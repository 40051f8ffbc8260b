import { describe, expect, it } from 'vitest';
import { emptyInfo, type InfoValues, incompleteSections, sectionOf, validateApplication } from './validate';

const complete: InfoValues = {
  ...emptyInfo(),
  fullName: 'Maria Santos',
  idNumber: 'N01-23-456789',
  companyName: 'Santos Bakery',
  position: 'Owner',
  phone: '09171234567',
  income: '30000',
  monthlyExpense: '12000',
  address: '12 Mabini St, Quezon City',
  contactName: 'Jose Santos',
  contactPhone: '09181234567',
  contactAddress: '12 Mabini St, Quezon City',
  contactRelation: 'sibling',
  bankName: 'GCash',
  accountNumber: '09171234567',
};
const allFiles = { idFront: true, idBack: true, selfie: true, signature: true };

describe('validateApplication', () => {
  it('passes a complete application; email is optional', () => {
    expect(validateApplication(complete, allFiles)).toEqual({});
    expect(validateApplication({ ...complete, email: 'maria@example.com' }, allFiles)).toEqual({});
  });

  it('uses the SPEC codes: required, digits only, email', () => {
    const errors = validateApplication(
      {
        ...complete,
        fullName: '  ',
        income: '30.000',
        contactPhone: '0918-123',
        email: 'maria@',
        contactRelation: '',
      },
      { ...allFiles, selfie: false, signature: false },
    );
    expect(errors).toEqual({
      fullName: 'FIELD_REQUIRED',
      income: 'FIELD_DIGITS_ONLY',
      contactPhone: 'FIELD_DIGITS_ONLY',
      email: 'EMAIL_INVALID',
      contactRelation: 'FIELD_REQUIRED',
      selfie: 'FIELD_REQUIRED',
      signature: 'SIGNATURE_REQUIRED',
    });
    expect(incompleteSections(errors)).toEqual(['identity', 'basic', 'signature']);
  });

  it('maps fields to their sections', () => {
    expect(sectionOf('selfie')).toBe('identity');
    expect(sectionOf('contactRelation')).toBe('basic');
    expect(sectionOf('accountNumber')).toBe('bank');
    expect(sectionOf('signature')).toBe('signature');
    expect(sectionOf('amount')).toBeNull();
  });
});
