import type { Selectable } from 'kysely';
import type { MyTermsResponse, TermsChangeDto } from '../../../domain/schemas/terms';
import type { TermsChangesTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { latestApplicationOf } from '../../lib/applications';

export function toTermsChangeDto(row: Selectable<TermsChangesTable>): TermsChangeDto {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    proposedAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    previous: row.previous_disclosure as Record<string, unknown>,
    disclosure: row.disclosure as Record<string, unknown>,
    disclosureSha256: row.disclosure_sha256,
  };
}

/** The statement the borrower signed on their latest application, the change waiting, and those accepted. */
export async function getMyTerms(deps: AppDeps, borrowerId: string): Promise<MyTermsResponse> {
  const { application } = await latestApplicationOf(deps, borrowerId);
  if (!application) return { signed: null, proposed: null, accepted: [] };
  const changes = await deps.db
    .selectFrom('terms_changes')
    .selectAll()
    .where('application_id', '=', application.id)
    .where('status', 'in', ['proposed', 'accepted', 'applied'])
    .orderBy('created_at', 'asc')
    .execute();
  const proposed = changes.find((c) => c.status === 'proposed');
  return {
    signed: {
      applicationId: application.id,
      loanNumber: application.loan_number,
      signedAt: application.submitted_at.toISOString(),
      disclosure: application.disclosure as Record<string, unknown>,
      disclosureSha256: application.disclosure_sha256,
    },
    proposed: proposed ? toTermsChangeDto(proposed) : null,
    accepted: changes.filter((c) => c.status !== 'proposed').map(toTermsChangeDto),
  };
}
