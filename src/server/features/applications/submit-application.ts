import { createHash, randomUUID } from 'node:crypto';
import { AppError, type FieldErrorInput } from '../../../domain/errors';
import { loanRequestSchema } from '../../../domain/loan/terms';
import { toMinor } from '../../../domain/money';
import {
  type ApplicationFileField,
  applicationFileFields,
  applicationInfoSchema,
} from '../../../domain/schemas/application';
import { loanQuoteRequest } from '../../../domain/schemas/loan-request';
import { storableOrNull } from '../../../domain/schemas/text';
import { issuesToAppError } from '../../../domain/validation';
import type { DocumentKind, User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { hasOpenApplication } from '../../lib/applications';
import { isUniqueViolation } from '../../lib/db-errors';
import { loanNumberYearSql, nextLoanNumberSql } from '../../loans/loan-number-sql';
import { quoteForBorrower } from '../../loans/quote-loan';
import { type SanitizedImage, sanitizeImage } from '../../storage/images';
import { randomFileName } from '../../storage/storage';

export interface SubmissionInput {
  /** Every text field of the form, as sent. */
  fields: Record<string, string>;
  files: Partial<Record<ApplicationFileField, Buffer>>;
}

const documentKinds: Record<ApplicationFileField, DocumentKind> = {
  idFront: 'id_front',
  idBack: 'id_back',
  selfie: 'selfie',
  signature: 'signature',
};

/**
 * Submits a loan application with its pictures and signature. Everything is checked before anything is
 * stored; the files and rows are then written so that a failure at any point leaves neither behind (the
 * files written are deleted again when the rows were not saved).
 */
export async function submitApplication(
  deps: AppDeps,
  borrower: User,
  input: SubmissionInput,
  /** Where the signature was made: kept with it (docs/decisions/018). */
  signer: { ip: string; userAgent: string | undefined } = { ip: '', userAgent: undefined },
) {
  const { fields, files } = input;
  const phone = loanRequestSchema.shape.phone.safeParse(fields.phone);
  // Whether this amount and term are offered depends on the product version and the borrower: checked below.
  const request = loanQuoteRequest.safeParse({
    amount: fields.amount,
    termMonths: Number(fields.termMonths),
    productVersionId: fields.productVersionId || undefined,
  });
  const info = applicationInfoSchema.safeParse(fields);
  const fieldErrors: Record<string, FieldErrorInput> = {};
  if (!phone.success) {
    fieldErrors.phone = issuesToAppError(phone.error.issues, 'PHONE_REQUIRED').code;
  }
  if (!request.success) {
    Object.assign(fieldErrors, issuesToAppError(request.error.issues, 'SECTIONS_INCOMPLETE').fields);
  }
  if (!info.success) {
    const error = issuesToAppError(info.error.issues, 'SECTIONS_INCOMPLETE');
    Object.assign(fieldErrors, error.fields);
  }
  for (const field of applicationFileFields) {
    if (!files[field]?.length) {
      fieldErrors[field] =
        field === 'signature'
          ? 'SIGNATURE_REQUIRED'
          : { code: 'FIELD_REQUIRED', params: { fieldKey: field } };
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !phone.success || !request.success || !info.success) {
    throw new AppError('SECTIONS_INCOMPLETE', { fields: fieldErrors });
  }

  await assertCanApply(deps, borrower.id);

  // The chosen version, still offered, with the amount in its range and the borrower's limit (issue #31).
  const { quote, version } = await quoteForBorrower(deps, borrower.id, request.data);
  if (fields.disclosureSha256 !== quote.disclosureSha256) {
    throw new AppError('TERMS_CHANGED', { fields: { signature: 'TERMS_CHANGED' } });
  }

  // One at a time: decoding four large pictures at once would quadruple peak memory on a small server.
  const images = {} as Record<ApplicationFileField, SanitizedImage>;
  for (const field of applicationFileFields) {
    try {
      images[field] = await sanitizeImage(files[field]!, field === 'signature' ? 'signature' : 'photo');
    } catch (error) {
      if (error instanceof AppError) {
        throw new AppError(error.code, { fields: { [field]: error.code } });
      }
      throw error;
    }
  }

  const applicationId = randomUUID();
  const folder = `applications/${applicationId}`;
  // Every key is noted before its write starts, so a failure at any point can remove what it left.
  const written: string[] = [];
  try {
    const stored = {} as Record<ApplicationFileField, { key: string; image: SanitizedImage }>;
    for (const field of applicationFileFields) {
      const key = `${folder}/${randomFileName(images[field].extension)}`;
      written.push(key);
      await deps.storage.put(key, images[field].data);
      stored[field] = { key, image: images[field] };
    }

    const created = await deps.db.transaction().execute(async (trx) => {
      const documentIds = {} as Record<ApplicationFileField, string>;
      for (const field of applicationFileFields) {
        const { key, image } = stored[field];
        const row = await trx
          .insertInto('documents')
          .values({
            owner_id: borrower.id,
            application_id: applicationId,
            kind: documentKinds[field],
            content_type: image.contentType,
            size: image.data.length,
            width: image.width,
            height: image.height,
            sha256: createHash('sha256').update(image.data).digest('hex'),
            storage_key: key,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        documentIds[field] = row.id;
      }
      const { disclosure } = quote;
      const d = info.data;
      return trx
        .insertInto('applications')
        .values({
          id: applicationId,
          loan_number: nextLoanNumberSql(loanNumberYearSql(deps.config.timeZone)),
          borrower_id: borrower.id,
          phone: phone.data,
          full_name: d.fullName,
          id_number: d.idNumber,
          amount: disclosure.amountMinor,
          term_months: disclosure.termMonths,
          monthly_rate_bp: quote.terms.monthlyRateBp,
          terms: JSON.stringify(quote.terms),
          product_version_id: version.id,
          monthly_payment: disclosure.monthlyPaymentMinor,
          company_name: d.companyName,
          position: d.position,
          income: toMinor(Number(d.income)),
          monthly_expense: toMinor(Number(d.monthlyExpense)),
          address: d.address,
          email: d.email || null,
          contact_name: d.contactName,
          contact_phone: d.contactPhone,
          contact_address: d.contactAddress,
          contact_relation: d.contactRelation,
          bank_name: d.bankName,
          account_number: d.accountNumber,
          doc_id_front: documentIds.idFront,
          doc_id_back: documentIds.idBack,
          doc_selfie: documentIds.selfie,
          doc_signature: documentIds.signature,
          disclosure: JSON.stringify(disclosure),
          disclosure_sha256: quote.disclosureSha256,
          signed_ip: storableOrNull(signer.ip || null),
          signed_user_agent: storableOrNull(signer.userAgent ?? null),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    publishAfterCommit(deps, { type: 'applications-changed' });
    return created;
  } catch (error) {
    await removeUnsavedFiles(deps, applicationId, written);
    if (isUniqueViolation(error, 'applications_one_open_per_borrower'))
      throw new AppError('ACTIVE_LOAN_EXISTS');
    throw error;
  }
}

/**
 * Undoes a failed submission's writes. Only when the application row is known to be absent: a commit whose
 * answer was lost (the connection dropped) may have saved it, and then its files are the borrower's
 * documents. What cannot be removed is logged with its keys rather than silently left.
 */
async function removeUnsavedFiles(deps: AppDeps, applicationId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  let saved: boolean;
  try {
    saved = Boolean(
      await deps.db
        .selectFrom('applications')
        .select('id')
        .where('id', '=', applicationId)
        .executeTakeFirst(),
    );
  } catch (error) {
    deps.log.warn(
      { err: error, applicationId, keys },
      'submission failed; its files are kept (state unknown)',
    );
    return;
  }
  if (saved) return;
  const results = await Promise.allSettled(keys.map((key) => deps.storage.delete(key)));
  const left = keys.filter((_, i) => results[i]?.status === 'rejected');
  if (left.length > 0)
    deps.log.warn({ applicationId, keys: left }, 'could not remove the files of a failed submission');
}

export async function assertCanApply(deps: AppDeps, borrowerId: string): Promise<void> {
  if (await hasOpenApplication(deps, borrowerId)) throw new AppError('ACTIVE_LOAN_EXISTS');
}
