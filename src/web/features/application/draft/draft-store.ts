import * as z from 'zod/mini';
import {
  type ApplicationFileField,
  type ApplicationInfoField,
  applicationFileFields,
  applicationInfoFields,
} from '../../../../domain/schemas/application-fields';
import type { FileStore, StoredFile } from '../../../lib/application-draft/file-store';
import { draftStorage, draftStorageKey } from '../../../lib/application-draft/key';
import { type Step1Data, step1DataSchema } from '../model/step1-data';

/**
 * A half-filled application survives a reload until it is submitted (SPEC principle 7): the typed text
 * and step-1 choices in localStorage, the pictures and the signature in a FileStore (IndexedDB). Both
 * are kept per user id, so a shared phone never shows one borrower's draft to another.
 */

const signatureMetaSchema = z.object({
  /** The disclosure the borrower signed under; a different quote voids the signature. */
  sha256: z.string(),
  /** CSS size of the pad when the picture was taken, to draw it back at the same size. */
  width: z.number().check(z.positive()),
  height: z.number().check(z.positive()),
});
export type SignatureMeta = z.infer<typeof signatureMetaSchema>;

const textDraftSchema = z.object({
  version: z.literal(1),
  step1: z.catch(z.nullable(step1DataSchema), null),
  info: z.catch(z.record(z.string(), z.unknown()), {}),
  signature: z.catch(z.nullable(signatureMetaSchema), null),
});

export interface TextDraft {
  version: 1;
  step1: Step1Data | null;
  /** Step-2 text fields as typed. */
  info: Partial<Record<ApplicationInfoField, string>>;
  signature: SignatureMeta | null;
}

export const emptyTextDraft: TextDraft = { version: 1, step1: null, info: {}, signature: null };

export { draftStorageKey };

/** The saved draft, or an empty one when there is none or it cannot be read (old shape, edited by hand). */
export function loadTextDraft(userId: string, storage = draftStorage()): TextDraft {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(draftStorageKey(userId)) ?? null;
  } catch {
    return emptyTextDraft;
  }
  if (!raw) return emptyTextDraft;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return emptyTextDraft;
  }
  const parsed = textDraftSchema.safeParse(json);
  if (!parsed.success) return emptyTextDraft;
  const info: TextDraft['info'] = {};
  for (const field of applicationInfoFields) {
    const value = parsed.data.info[field];
    if (typeof value === 'string') info[field] = value;
  }
  return { version: 1, step1: parsed.data.step1, info, signature: parsed.data.signature };
}

/** Merges `patch` into the saved draft. False when storage refused it (full, or disabled). */
export function updateTextDraft(
  userId: string,
  patch: Partial<TextDraft>,
  storage = draftStorage(),
): boolean {
  if (!storage) return false;
  const next = { ...loadTextDraft(userId, storage), ...patch, version: 1 };
  try {
    storage.setItem(draftStorageKey(userId), JSON.stringify(next));
    return true;
  } catch {
    return false;
  }
}

export function clearTextDraft(userId: string, storage = draftStorage()): void {
  try {
    storage?.removeItem(draftStorageKey(userId));
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

const fileKey = (userId: string, field: ApplicationFileField) => `${userId}/${field}`;

/** The saved pictures and signature; a store that cannot be read gives none (the text still restores). */
export async function loadDraftFiles(
  store: FileStore,
  userId: string,
): Promise<Partial<Record<ApplicationFileField, StoredFile>>> {
  const files: Partial<Record<ApplicationFileField, StoredFile>> = {};
  for (const field of applicationFileFields) {
    const file = await store.get(fileKey(userId, field)).catch(() => undefined);
    if (file && file.blob instanceof Blob && file.blob.size > 0) files[field] = file;
  }
  return files;
}

/** Saves or (with null) removes one file of the draft. Rejects when the store fails. */
export function saveDraftFile(
  store: FileStore,
  userId: string,
  field: ApplicationFileField,
  file: StoredFile | null,
): Promise<void> {
  return file ? store.put(fileKey(userId, field), file) : store.delete(fileKey(userId, field));
}

/** After a successful submission: the whole draft goes, text and files. */
export async function clearDraft(userId: string, store: FileStore, storage = draftStorage()): Promise<void> {
  clearTextDraft(userId, storage);
  await store.deletePrefix(`${userId}/`).catch(() => {});
}
