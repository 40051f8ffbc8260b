import { draftFileStore } from './file-store';
import { draftKeyPrefix, draftStorage } from './key';

/**
 * Forgets the half-filled applications kept on this device — the typed text and the identity pictures,
 * selfie and signature — except `keepUserId`'s: at a sign-out every one goes, at a sign-in another user's do
 * (a shared phone keeps no one else's documents). A session that merely ended keeps the draft for its
 * owner's next sign-in. Best effort: storage that cannot be read kept nothing either.
 */
export async function forgetApplicationDrafts(keepUserId?: string): Promise<void> {
  const storage = draftStorage();
  try {
    const names: string[] = [];
    for (let i = 0; storage && i < storage.length; i++) {
      const name = storage.key(i);
      if (name?.startsWith(draftKeyPrefix) && name !== `${draftKeyPrefix}${keepUserId}`) names.push(name);
    }
    for (const name of names) storage?.removeItem(name);
  } catch {
    // Storage switched off: nothing was kept.
  }
  await draftFileStore()
    .deleteAllBut(keepUserId === undefined ? null : `${keepUserId}/`)
    .catch(() => {});
}
