import type { Selectable } from 'kysely';
import type { DisbursementDto } from '../../domain/schemas/wallet';
import type { DisbursementsTable } from '../db/schema';

export function toDisbursementDto(row: Selectable<DisbursementsTable>): DisbursementDto {
  return {
    id: row.id,
    amountMinor: row.amount,
    feeMinor: Number(row.fee_minor),
    netMinor: row.amount - Number(row.fee_minor),
    status: row.status,
    bankName: row.bank_name,
    accountNumberLast4: row.account_number.slice(-4),
    requestedAt: row.requested_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    reference: row.reference,
    failureReason: row.failure_reason,
  };
}
