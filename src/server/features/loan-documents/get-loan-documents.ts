import type { Readable } from 'node:stream';
import { AppError } from '../../../domain/errors';
import type { Language } from '../../../domain/languages';
import { type StoredDisclosure as Disclosure, storedDisclosureSchema } from '../../../domain/loan/disclosure';
import type { AppDeps } from '../../deps';
import { type BorrowerRequest, quoteForBorrower } from '../../loans/quote-loan';

/** No lender name is configured: documents are issued under the product's name (as the statement is). */
const LENDER_NAME = 'Hiram';

/** The renderers, with pdfkit and the fonts' shaping, are loaded by the first document, not at start-up (#35). */
const renderer = () => import('./render-loan-documents');
const renderDisclosurePdf: typeof import('./render-loan-documents').renderDisclosurePdf = async (...args) =>
  (await renderer()).renderDisclosurePdf(...args);
const renderAgreementPdf: typeof import('./render-loan-documents').renderAgreementPdf = async (...args) =>
  (await renderer()).renderAgreementPdf(...args);

export interface LoanDocumentPdf {
  filename: string;
  pdf: Buffer;
}

/** Step 1, before applying: the disclosure for an amount and term, computed like the quote the borrower signs. */
export async function quotedDisclosurePdf(
  deps: AppDeps,
  borrowerId: string,
  input: BorrowerRequest,
  language: Language,
): Promise<LoanDocumentPdf> {
  const {
    quote: { disclosure },
  } = await quoteForBorrower(deps, borrowerId, input);
  const pdf = await renderDisclosurePdf(
    {
      lenderName: LENDER_NAME,
      supportEmail: deps.config.supportEmail,
      disclosure,
      borrowerName: null,
      loanNumber: null,
      // The quote's own day, so the same quote always renders the same file.
      issuedAt: new Date(`${disclosure.startDate}T00:00:00Z`),
      timeZone: deps.config.timeZone,
    },
    language,
  );
  return { filename: `disclosure-${input.amount}-${input.termMonths}m.pdf`, pdf };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A stored application with its signed disclosure (borrower: their latest one; staff: any by id). */
async function signedApplication(deps: AppDeps, where: { borrowerId: string } | { id: string }) {
  let query = deps.db
    .selectFrom('applications')
    .leftJoin('documents', 'documents.id', 'applications.doc_signature')
    .select([
      'applications.id',
      'applications.loan_number',
      'applications.full_name',
      'applications.id_number',
      'applications.address',
      'applications.disclosure',
      'applications.disclosure_sha256',
      'applications.submitted_at',
      'documents.storage_key as signature_key',
    ]);
  query =
    'id' in where
      ? query.where('applications.id', '=', where.id)
      : query
          .where('applications.borrower_id', '=', where.borrowerId)
          .orderBy('applications.submitted_at', 'desc')
          .limit(1);
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('LOAN_NOT_FOUND');
  // The snapshot as signed; a record without a valid one (none here) has no documents to give.
  const parsed = storedDisclosureSchema.safeParse(
    typeof row.disclosure === 'string' ? JSON.parse(row.disclosure) : row.disclosure,
  );
  if (!parsed.success) throw new AppError('LOAN_NOT_FOUND');
  return { row, disclosure: parsed.data };
}

function storedFacts(
  deps: AppDeps,
  row: { loan_number: string; full_name: string; submitted_at: Date },
  disclosure: Disclosure,
) {
  return {
    lenderName: LENDER_NAME,
    supportEmail: deps.config.supportEmail,
    disclosure,
    borrowerName: row.full_name,
    loanNumber: row.loan_number,
    issuedAt: row.submitted_at,
    timeZone: deps.config.timeZone,
  };
}

/** The disclosure statement the borrower signed (their latest application), from the stored snapshot. */
export async function ownDisclosurePdf(deps: AppDeps, borrowerId: string, language: Language) {
  const { row, disclosure } = await signedApplication(deps, { borrowerId });
  const pdf = await renderDisclosurePdf(storedFacts(deps, row, disclosure), language);
  return { filename: `disclosure-${row.loan_number}.pdf`, pdf };
}

async function agreement(deps: AppDeps, where: { borrowerId: string } | { id: string }, language: Language) {
  const { row, disclosure } = await signedApplication(deps, where);
  const file = row.signature_key ? await deps.storage.get(row.signature_key) : null;
  const pdf = await renderAgreementPdf(
    {
      ...storedFacts(deps, row, disclosure),
      idNumber: row.id_number,
      address: row.address,
      regulatorContact: deps.config.regulatorContact,
      disclosureSha256: row.disclosure_sha256,
      signaturePng: file ? await readAll(file.body) : null,
    },
    language,
  );
  return { filename: `loan-agreement-${row.loan_number}.pdf`, pdf };
}

/** The borrower's signed loan agreement (their latest application). */
export function ownAgreementPdf(deps: AppDeps, borrowerId: string, language: Language) {
  return agreement(deps, { borrowerId }, language);
}

/** Any application's signed agreement, for staff: a read of what the borrower signed, not audited. */
export function staffAgreementPdf(deps: AppDeps, applicationId: string, language: Language) {
  return agreement(deps, { id: applicationId }, language);
}
