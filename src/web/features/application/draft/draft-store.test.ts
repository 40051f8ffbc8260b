import { describe, expect, it } from 'vitest';
import { createMemoryFileStore } from '../../../lib/application-draft/file-store';
import {
  clearDraft,
  draftStorageKey,
  loadDraftFiles,
  loadTextDraft,
  saveDraftFile,
  updateTextDraft,
} from './draft-store';

const alice = 'user-alice';
const bob = 'user-bob';
const step1 = { phone: '09171234567', amount: 100_000, termMonths: 12, monthlyPaymentMinor: 945_596 };

describe('text draft (localStorage)', () => {
  it('round-trips step 1, the typed fields and the signature meta, per user', () => {
    expect(loadTextDraft(alice)).toEqual({ version: 1, step1: null, info: {}, signature: null });
    expect(updateTextDraft(alice, { step1 })).toBe(true);
    expect(updateTextDraft(alice, { info: { fullName: 'Alice Cruz', income: '25000' } })).toBe(true);
    updateTextDraft(alice, { signature: { sha256: 'abc', width: 350, height: 150 } });

    expect(loadTextDraft(alice)).toEqual({
      version: 1,
      step1,
      info: { fullName: 'Alice Cruz', income: '25000' },
      signature: { sha256: 'abc', width: 350, height: 150 },
    });
    // Another borrower on the same phone sees nothing of it.
    expect(loadTextDraft(bob).step1).toBeNull();
    expect(window.localStorage.getItem(draftStorageKey(alice))).toContain('Alice Cruz');
  });

  it('drops unknown fields and non-strings, and survives junk in storage', () => {
    window.localStorage.setItem(
      draftStorageKey(alice),
      JSON.stringify({
        version: 1,
        step1,
        info: { fullName: 'A', isAdmin: 'yes', income: 5 },
        signature: null,
      }),
    );
    expect(loadTextDraft(alice).info).toEqual({ fullName: 'A' });

    window.localStorage.setItem(draftStorageKey(alice), '{not json');
    expect(loadTextDraft(alice)).toEqual({ version: 1, step1: null, info: {}, signature: null });

    // A step 1 that is not step-1 data at all is forgotten, the rest kept. (Whether its amount and term
    // are still offered is step 2's check, against the lender's settings.)
    window.localStorage.setItem(
      draftStorageKey(alice),
      JSON.stringify({
        version: 1,
        step1: { ...step1, amount: '100000' },
        info: { fullName: 'A' },
        signature: null,
      }),
    );
    expect(loadTextDraft(alice)).toMatchObject({ step1: null, info: { fullName: 'A' } });
  });

  it('reports a full storage instead of throwing', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => {},
    } as unknown as Storage;
    expect(updateTextDraft(alice, { step1 }, full)).toBe(false);
  });
});

describe('draft files (FileStore)', () => {
  it('saves, restores and removes pictures per user; clearDraft removes only that user’s draft', async () => {
    const store = createMemoryFileStore();
    const front = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
    const signature = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    await saveDraftFile(store, alice, 'idFront', { blob: front, name: 'front.jpg' });
    await saveDraftFile(store, alice, 'signature', { blob: signature, name: 'signature.png' });
    await saveDraftFile(store, bob, 'idFront', { blob: front, name: 'bob.jpg' });
    updateTextDraft(alice, { step1 });

    const restored = await loadDraftFiles(store, alice);
    expect(Object.keys(restored).sort()).toEqual(['idFront', 'signature']);
    expect(restored.idFront?.name).toBe('front.jpg');
    expect(restored.idFront?.blob.size).toBe(4);

    await saveDraftFile(store, alice, 'idFront', null);
    expect(Object.keys(await loadDraftFiles(store, alice))).toEqual(['signature']);

    await clearDraft(alice, store);
    expect(await loadDraftFiles(store, alice)).toEqual({});
    expect(loadTextDraft(alice).step1).toBeNull();
    expect(store.keys()).toEqual([`${bob}/idFront`]);
  });

  it('restores nothing from a store that fails', async () => {
    const broken = {
      ...createMemoryFileStore(),
      get: () => Promise.reject(new Error('IndexedDB is gone')),
    };
    expect(await loadDraftFiles(broken, alice)).toEqual({});
  });
});
