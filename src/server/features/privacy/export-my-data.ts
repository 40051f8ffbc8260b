import type { Readable } from 'node:stream';
import type { AppDeps } from '../../deps';
import { exportReadme, readmeFileName } from './export-readme';

/** Where each document goes in the ZIP: documents/<loan number>-<kind>.<ext>. */
const extensionOf = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/**
 * Everything held about the signed-in borrower (RA 10173 access and portability), as a ZIP streamed to the
 * client: a README in the borrower's language explaining every file and field, JSON of the profile,
 * applications, the disclosures they signed, payouts, repayments, messages and reminders, consents; then each of their documents, read from storage one at a time while the ZIP is
 * written (never buffered whole). Every query is bound to this borrower's id: the rows of loans that are
 * theirs (`borrower_id`), and nothing else.
 */
export async function exportMyData(deps: AppDeps, userId: string): Promise<Readable> {
  const { db } = deps;
  const user = await db
    .selectFrom('users')
    .select([
      'id',
      'phone',
      'username',
      'role',
      'status',
      'avatar',
      'language',
      'created_at',
      'last_login_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const applications = await db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', userId)
    .orderBy('submitted_at')
    .execute();
  const loanIds = applications.map((a) => a.id);
  const inLoans = loanIds.length > 0 ? loanIds : ['00000000-0000-0000-0000-000000000000'];
  const loanNumber = new Map(applications.map((a) => [a.id, a.loan_number]));

  const disbursements = await db
    .selectFrom('disbursements')
    .select([
      'id',
      'application_id',
      'amount',
      'bank_name',
      'account_number',
      'status',
      'requested_at',
      'decided_at',
      'reference',
      'failure_reason',
    ])
    .where('application_id', 'in', inLoans)
    .orderBy('requested_at')
    .execute();
  const repayments = await db
    .selectFrom('repayments')
    .leftJoin('repayment_reversals', 'repayment_reversals.repayment_id', 'repayments.id')
    .select([
      'repayments.id',
      'repayments.application_id',
      'repayments.amount',
      'repayments.received_on',
      'repayments.channel',
      'repayments.reference',
      'repayments.created_at',
      'repayment_reversals.reason as reversal_reason',
      'repayment_reversals.created_at as reversed_at',
    ])
    .where('repayments.application_id', 'in', inLoans)
    .orderBy('repayments.created_at')
    .execute();
  const events = await db
    .selectFrom('borrower_events')
    .select(['id', 'application_id', 'kind', 'message', 'data', 'created_at'])
    .where('borrower_id', '=', userId)
    .orderBy('id')
    .execute();
  // Every SMS the outbox holds for them: reminders and the messages of each change, a complaint's too (no loan).
  const reminders = await db
    .selectFrom('loan_reminders')
    .selectAll()
    .where('borrower_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const consents = await db
    .selectFrom('consents')
    .select(['notice_version', 'context', 'consented_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('consented_at')
    .execute();
  const documents = await db
    .selectFrom('documents')
    .select(['id', 'application_id', 'kind', 'content_type', 'size', 'sha256', 'storage_key', 'created_at'])
    .where('owner_id', '=', userId)
    .where('erased_at', 'is', null)
    .orderBy('created_at')
    .execute();

  const withLoanNumber = <T extends { application_id: string | null }>(row: T) => ({
    loan_number: row.application_id ? (loanNumber.get(row.application_id) ?? null) : null,
    ...row,
  });
  const { disclosuresOf, applicationRows } = splitDisclosures(applications);

  const { ZipFile } = await import('yazl'); // loaded here, not at start-up (issue #35)
  const zip = new ZipFile();
  const mtime = deps.clock.now();
  const add = (name: string, value: unknown) => zip.addBuffer(json(value), name, { mtime });
  // Channels by their names; a code no longer configured is still listed, as itself.
  const channels = deps.config.paymentChannels.map(({ code, name }) => ({ code, name }));
  for (const { channel } of repayments)
    if (!channels.some((c) => c.code === channel)) channels.push({ code: channel, name: channel });
  const readme = exportReadme(user.language, { now: mtime, timeZone: deps.config.timeZone, channels });
  zip.addBuffer(Buffer.from(readme, 'utf8'), readmeFileName, { mtime });
  add('profile.json', { exported_at: mtime.toISOString(), user });
  add('applications.json', applicationRows);
  add('disclosures.json', disclosuresOf);
  add('disbursements.json', disbursements.map(withLoanNumber));
  add('repayments.json', repayments.map(withLoanNumber));
  add('messages.json', { events: events.map(withLoanNumber), reminders: reminders.map(withLoanNumber) });
  add('consents.json', consents);
  const listed: { file: string; kind: string; loan_number: string | null; sha256: string }[] = [];
  for (const document of documents) {
    const file = `documents/${loanNumber.get(document.application_id) ?? 'document'}-${document.kind}.${extensionOf[document.content_type]}`;
    // A document whose file is gone is listed without it rather than failing the whole export.
    if (!(await deps.storage.exists(document.storage_key))) continue;
    listed.push({
      file,
      kind: document.kind,
      loan_number: loanNumber.get(document.application_id) ?? null,
      sha256: document.sha256,
    });
    zip.addReadStreamLazy(file, { mtime, compress: false }, (done) => {
      deps.storage.get(document.storage_key).then(
        (stored) =>
          stored ? done(null, stored.body) : done(new Error('document missing from storage'), null!),
        (error: unknown) => done(error, null!),
      );
    });
  }
  add('documents.json', listed);
  zip.end();
  return zip.outputStream as Readable;
}

/** The disclosure each application was signed with goes to its own file; the rows keep the rest. */
function splitDisclosures<T extends { loan_number: string; disclosure: unknown; disclosure_sha256: string }>(
  applications: T[],
) {
  return {
    disclosuresOf: applications.map((a) => ({
      loan_number: a.loan_number,
      disclosure_sha256: a.disclosure_sha256,
      disclosure: a.disclosure,
    })),
    applicationRows: applications.map(({ disclosure: _d, disclosure_sha256: _h, ...rest }) => rest),
  };
}
