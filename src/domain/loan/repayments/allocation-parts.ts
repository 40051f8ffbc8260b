import type { Allocation } from './ledger';

/** An allocation's parts in the order money is applied (docs/decisions/010): the name its texts use, its field. */
const allocationParts = [
  ['lateCharges', 'lateChargesMinor'],
  ['interest', 'interestMinor'],
  ['principal', 'principalMinor'],
  ['advance', 'advanceMinor'],
  ['prepaidPrincipal', 'prepaidPrincipalMinor'],
  ['overpayment', 'overpaymentMinor'],
] as const satisfies readonly (readonly [string, keyof Allocation])[];

type AllocationPart = (typeof allocationParts)[number][0];

/** The parts of `allocation` that took money, in that order, each as [name, amount in minor units]. */
export function paidParts(allocation: Allocation): [AllocationPart, number][] {
  return allocationParts
    .filter(([, field]) => allocation[field] > 0)
    .map(([name, field]): [AllocationPart, number] => [name, allocation[field]]);
}
