// Where the application's text draft is kept, without the draft store's schemas (zod): step 1 asks whether a
// borrower has a saved draft on its first load, and fetches the store only then (docs/decisions/052); signing
// out forgets the drafts (./forget.ts).

/** Every user's application draft is kept under this prefix and the user's id. */
export const draftKeyPrefix = 'hiram.application-draft.';

export function draftStorageKey(userId: string): string {
  return `${draftKeyPrefix}${userId}`;
}

export function draftStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Whether anything is saved under the user's draft key (read or not: the store decides what it holds). */
export function hasSavedDraft(userId: string, storage = draftStorage()): boolean {
  try {
    return storage?.getItem(draftStorageKey(userId)) != null;
  } catch {
    return false;
  }
}
