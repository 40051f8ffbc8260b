import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearFormDrafts,
  DRAFT_LIFETIME_MS,
  keepableValues,
  keepOnlyDraftsOf,
  readDraft,
  removeExpiredDrafts,
  writeDraft,
} from './draft-store';

const maria = '00000000-0000-4000-8000-00000000aa01';
const jose = '00000000-0000-4000-8000-00000000aa02';
const drafts = () =>
  Object.keys(window.localStorage)
    .filter((key) => key.startsWith('hiram.draft.'))
    .sort();

beforeEach(() => window.localStorage.clear());

describe('what a draft may hold', () => {
  it('keeps plain text, numbers, yes/no and lists of text', () => {
    expect(
      keepableValues({ text: 'Hello', amount: 5000, agreed: true, relation: null, tags: ['a', 'b'] }),
    ).toEqual({ text: 'Hello', amount: 5000, agreed: true, relation: null, tags: ['a', 'b'] });
  });

  it.each([
    'password',
    'currentPassword',
    'newPassword',
    'confirmPassword',
    'passcode',
    'code',
    'verificationCode',
    'otp',
    'pin',
    'secret',
    'token',
    'csrfToken',
    'signature',
    'picture',
    'photo',
    'selfie',
    'idFrontImage',
    'file',
    'document',
  ])('never keeps a field named %s, whatever it holds', (name) => {
    expect(keepableValues({ [name]: 'typed text', text: 'kept' })).toEqual({ text: 'kept' });
  });

  it('never keeps files, blobs, objects or odd numbers', () => {
    const file = new File(['x'], 'id.png', { type: 'image/png' });
    expect(
      keepableValues({
        attached: file,
        blob: new Blob(['x']),
        nested: { text: 'x' },
        mixed: ['a', 1],
        nan: Number.NaN,
        text: 'kept',
      }),
    ).toEqual({ text: 'kept' });
  });

  it('leaves out the fields the form names', () => {
    expect(keepableValues({ text: 'kept', accountNumber: '0917' }, ['accountNumber'])).toEqual({
      text: 'kept',
    });
  });

  it('stores no password even when a form passes one', () => {
    writeDraft(maria, 'signup', { phone: '09171234567', password: 'correct horse', code: '908070' });
    const raw = window.localStorage.getItem(drafts()[0]!) ?? '';
    expect(raw).not.toContain('correct horse');
    expect(raw).not.toContain('908070');
    expect(readDraft(maria, 'signup')).toEqual({ phone: '09171234567' });
  });
});

describe('whose draft and for how long', () => {
  it('is kept per user and per form', () => {
    writeDraft(maria, 'complaint', { text: "Maria's words" });
    expect(readDraft(maria, 'complaint')).toEqual({ text: "Maria's words" });
    expect(readDraft(jose, 'complaint')).toBeNull();
    expect(readDraft(maria, 'reject:1')).toBeNull();
  });

  it('an empty form removes the draft', () => {
    writeDraft(maria, 'complaint', { text: 'x' });
    writeDraft(maria, 'complaint', { text: '   ', category: null });
    expect(drafts()).toEqual([]);
  });

  it('lasts a day after the last keystroke, then is gone', () => {
    const now = Date.UTC(2026, 10, 28, 2, 0);
    writeDraft(maria, 'complaint', { text: 'x' }, { now });
    expect(readDraft(maria, 'complaint', now + DRAFT_LIFETIME_MS - 1)).toEqual({ text: 'x' });
    expect(readDraft(maria, 'complaint', now + DRAFT_LIFETIME_MS)).toBeNull();
    expect(drafts()).toEqual([]);
  });

  it('old drafts of anyone go when a form opens', () => {
    const now = Date.UTC(2026, 10, 28, 2, 0);
    writeDraft(maria, 'complaint', { text: 'old' }, { now: now - DRAFT_LIFETIME_MS - 1 });
    writeDraft(jose, 'complaint', { text: 'fresh' }, { now: now - 1000 });
    window.localStorage.setItem('hiram.lang', 'fil');
    removeExpiredDrafts(now);
    expect(drafts()).toEqual([`hiram.draft.${jose}.complaint`]);
    expect(window.localStorage.getItem('hiram.lang')).toBe('fil');
  });

  it("sign-out clears every draft; a sign-in clears other users' drafts only", () => {
    writeDraft(maria, 'complaint', { text: 'a' });
    writeDraft(maria, 'reject:1', { reason: 'b' });
    writeDraft(jose, 'complaint', { text: 'c' });
    window.localStorage.setItem('hiram.application-draft.x', '{}');
    keepOnlyDraftsOf(maria);
    expect(drafts()).toEqual([`hiram.draft.${maria}.complaint`, `hiram.draft.${maria}.reject:1`]);
    clearFormDrafts();
    expect(drafts()).toEqual([]);
    // Not a draft of this module: left alone.
    expect(window.localStorage.getItem('hiram.application-draft.x')).toBe('{}');
  });

  it('a broken or hand-edited entry is nothing, not an error', () => {
    window.localStorage.setItem(`hiram.draft.${maria}.complaint`, '{not json');
    expect(readDraft(maria, 'complaint')).toBeNull();
    window.localStorage.setItem(
      `hiram.draft.${maria}.complaint`,
      JSON.stringify({ savedAt: 'x', values: {} }),
    );
    expect(readDraft(maria, 'complaint')).toBeNull();
  });

  it('full or switched-off storage keeps nothing and throws nothing', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(() => writeDraft(maria, 'complaint', { text: 'x' })).not.toThrow();
    expect(readDraft(maria, 'complaint')).toBeNull();
  });
});
