/**
 * A second loan product's terms as an admin would type them (a salary loan with a fee taken from the payout,
 * a late charge and a first-loan limit): step 1 then offers a choice, with long names in every language.
 */
export const salaryLoanTerms = {
  names: { en: 'Salary loan', fil: 'Pautang sa sahod', zh: '工资贷款', km: 'ប្រាក់កម្ចីប្រាក់ខែ' },
  borrowerAmount: { min: 5_000, max: 50_000, step: 5_000 },
  staffAmount: { min: 5_000, max: 100_000, step: 5_000 },
  termsMonths: [3, 6],
  defaultTermMonths: 3,
  monthlyRateBp: 300,
  fees: { flatMinor: 50_000, percentBp: 100, collection: 'deducted_from_payout' },
  lateChargeMonthlyBp: 300,
  graceDays: 3,
  fourEyesThresholdMinor: 5_000_000,
  eligibility: {
    firstLoanMaxAmount: 20_000,
    repeat: { afterLoans: 1, maxDaysLate: 5, maxAmount: 50_000 },
  },
};
