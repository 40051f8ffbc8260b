import type { Readable } from 'node:stream';
import { AppError } from '../../../domain/errors';
import { isStaff } from '../../../domain/roles';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';

export interface FileForDownload {
  stream: Readable;
  contentType: string;
  size: number;
}

/**
 * A private document, only for its owner or staff. Everyone else gets "not found", never "forbidden",
 * so document ids cannot be probed.
 */
export async function getFile(deps: AppDeps, user: User, id: string): Promise<FileForDownload> {
  const document = await deps.db
    .selectFrom('documents')
    .select(['owner_id', 'content_type', 'size', 'storage_key'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!document || (document.owner_id !== user.id && !isStaff(user.role))) throw new AppError('NOT_FOUND');
  // A row without its file is "not found"; a storage that cannot be reached is an error (500, logged).
  const file = await deps.storage.get(document.storage_key);
  if (!file) throw new AppError('NOT_FOUND');
  // The length is the stored object's own, so the header always matches the bytes streamed.
  return { stream: file.body, contentType: document.content_type, size: file.size };
}
