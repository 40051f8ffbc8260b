import type { MyDocumentList } from '../../../domain/schemas/privacy';
import type { AppDeps } from '../../deps';

/**
 * The borrower's own uploaded documents (ID front and back, selfie, signature) of every application, newest
 * first; the pictures themselves come through GET /api/files/:id, which checks ownership again.
 */
export async function listMyDocuments(deps: AppDeps, userId: string): Promise<MyDocumentList> {
  const rows = await deps.db
    .selectFrom('documents')
    .innerJoin('applications', 'applications.id', 'documents.application_id')
    .select(['documents.id', 'documents.kind', 'documents.created_at', 'applications.loan_number'])
    .where('documents.owner_id', '=', userId)
    .where('applications.borrower_id', '=', userId)
    .where('documents.erased_at', 'is', null)
    .orderBy('applications.submitted_at', 'desc')
    .orderBy('documents.kind')
    .execute();
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      loanNumber: row.loan_number,
      createdAt: row.created_at.toISOString(),
    })),
  };
}
