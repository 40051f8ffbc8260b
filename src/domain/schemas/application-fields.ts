/**
 * The application's field names and sections (SPEC §2.4), without zod: step 1's first load reads them
 * (the saved draft) without carrying the step-2 schema (docs/decisions/023). application.ts re-exports them
 * and checks that its schema has exactly `applicationInfoFields`.
 */

/** Relations a borrower can name for their other contact (SPEC §2.4). */
export const contactRelations = ['partner', 'parent', 'friend', 'relative', 'sibling'] as const;

const identityTextFields = ['fullName', 'idNumber'] as const;
const basicFields = [
  'companyName',
  'position',
  'phone',
  'income',
  'monthlyExpense',
  'address',
  'email',
  'contactName',
  'contactPhone',
  'contactAddress',
  'contactRelation',
] as const;
const bankFields = ['bankName', 'accountNumber'] as const;

/** The four sections of step 2 and the fields each one validates. */
export const applicationSections = {
  identity: [...identityTextFields, 'idFront', 'idBack', 'selfie'],
  basic: basicFields,
  bank: bankFields,
  signature: ['signature'],
} as const;
export type ApplicationSection = keyof typeof applicationSections;

/** The text fields of step 2, in form order (the keys of `applicationInfoSchema`). */
export const applicationInfoFields = [...identityTextFields, ...basicFields, ...bankFields] as const;
export type ApplicationInfoField = (typeof applicationInfoFields)[number];

export const applicationFileFields = ['idFront', 'idBack', 'selfie', 'signature'] as const;
export type ApplicationFileField = (typeof applicationFileFields)[number];
