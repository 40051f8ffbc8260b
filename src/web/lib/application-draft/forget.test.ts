import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFileStore, setDraftFileStore } from './file-store';
import { forgetApplicationDrafts } from './forget';
import { draftStorageKey } from './key';

/** Two borrowers' half-filled applications on one phone: text in localStorage, pictures in the file store. */
function twoDrafts() {
  const store = createMemoryFileStore();
  setDraftFileStore(store);
  for (const user of ['ana', 'ben']) {
    localStorage.setItem(draftStorageKey(user), JSON.stringify({ version: 1, info: { fullName: user } }));
    for (const field of ['idFront', 'selfie', 'signature'])
      void store.put(`${user}/${field}`, { blob: new Blob(['x']), name: `${field}.jpg` });
  }
  localStorage.setItem('hiram.lang', 'fil');
  return store;
}

afterEach(() => {
  setDraftFileStore(null);
  localStorage.clear();
});

describe('forgetting half-filled applications on this device', () => {
  it('at a sign-in keeps only the signed-in borrower’s text and pictures', async () => {
    const store = twoDrafts();
    await forgetApplicationDrafts('ben');
    expect(localStorage.getItem(draftStorageKey('ana'))).toBeNull();
    expect(localStorage.getItem(draftStorageKey('ben'))).not.toBeNull();
    expect(store.keys().sort()).toEqual(['ben/idFront', 'ben/selfie', 'ben/signature']);
    // Nothing else the app keeps is touched.
    expect(localStorage.getItem('hiram.lang')).toBe('fil');
  });

  it('at a sign-out forgets every one', async () => {
    const store = twoDrafts();
    await forgetApplicationDrafts();
    expect(localStorage.getItem(draftStorageKey('ana'))).toBeNull();
    expect(localStorage.getItem(draftStorageKey('ben'))).toBeNull();
    expect(store.keys()).toEqual([]);
    expect(localStorage.getItem('hiram.lang')).toBe('fil');
  });
});
