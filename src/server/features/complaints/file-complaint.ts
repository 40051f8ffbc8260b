import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { fileComplaintSchema } from '../../../domain/schemas/complaints';
import { issuesToAppError } from '../../../domain/validation';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import type { ParsedMultipart } from '../../lib/multipart';
import { type SanitizedImage, sanitizeImage } from '../../storage/images';
import { randomFileName } from '../../storage/storage';
import { myComplaints } from './list-my-complaints';

/**
 * A borrower files a complaint: a category from the fixed list, the text and optionally one picture, which is
 * checked by its content and re-encoded without metadata exactly like an application picture. The reference
 * (C-<year in the lender's time zone>-<running number>) comes from a sequence, so two complaints filed at the
 * same moment never share one (and the column is unique besides).
 */
export async function fileComplaint(deps: AppDeps, borrower: User, form: ParsedMultipart) {
  const parsed = fileComplaintSchema.safeParse(form.fields);
  if (!parsed.success) throw issuesToAppError(parsed.error.issues, 'VALIDATION_FAILED');

  let picture: SanitizedImage | null = null;
  const upload = form.files.picture;
  if (upload && upload.length > 0) {
    try {
      picture = await sanitizeImage(upload, 'photo');
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, { fields: { picture: error.code } });
      throw error;
    }
  }

  const id = randomUUID();
  const key = picture ? `complaints/${id}/${randomFileName(picture.extension)}` : null;
  if (picture && key) await deps.storage.put(key, picture.data);
  try {
    await deps.db.transaction().execute(async (trx) => {
      // The borrower's latest application, if any: staff see which loan the complaint is about.
      const latest = await trx
        .selectFrom('applications')
        .select('id')
        .where('borrower_id', '=', borrower.id)
        .orderBy('submitted_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      await trx
        .insertInto('complaints')
        .values({
          id,
          reference: sql<string>`'C-' || to_char(now() at time zone ${deps.config.timeZone}, 'YYYY') || '-' || lpad(nextval('complaint_reference_seq')::text, 6, '0')`,
          borrower_id: borrower.id,
          application_id: latest?.id ?? null,
          category: parsed.data.category,
          text: parsed.data.text,
          picture_key: key,
          picture_content_type: picture ? 'image/jpeg' : null,
        })
        .execute();
    });
  } catch (error) {
    // Nothing refers to the picture when the row was not saved.
    if (key) await deps.storage.delete(key).catch(() => {});
    throw error;
  }
  publishAfterCommit(deps, { type: 'complaints-changed' });
  const [created] = await myComplaints(deps, borrower.id, id);
  return created!;
}
