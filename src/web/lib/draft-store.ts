/**
 * Where forms keep what is being typed (issue #32; the hook is `useFormDraft` in form-draft.ts): the
 * browser's localStorage, one entry per signed-in user and form, so another user of a shared phone never
 * sees it. Only plain text, numbers and yes/no values are kept, never a field whose name says it holds a
 * secret (passwords, codes, PINs, tokens) or a file, picture or signature; an entry lasts a day after the
 * last keystroke, and every entry goes at sign-out. Storage that is full or switched off keeps nothing and
 * the form works as before.
 */

/** The kept values of one form: flat, plain values only. */
export type DraftValue = string | number | boolean | null | readonly string[];
export type DraftValues = Record<string, DraftValue>;

const PREFIX = 'hiram.draft.';
/** A draft is forgotten a day after it was last saved. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Field names that are never kept, whatever the form says: secrets (a password, a verification or
 * authenticator code, a PIN, a token), and files, pictures and signatures (issue #32).
 */
const neverKept =
  /pass(word|phrase|code)?|secret|token|otp|pin$|^pin|code$|^code|cvv|signature|file|picture|photo|selfie|image|document|upload|attachment/i;

interface StoredDraft {
  savedAt: number;
  values: DraftValues;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function entryKey(userId: string, key: string): string {
  return `${PREFIX}${encodeURIComponent(userId)}.${key}`;
}

function ownerOf(storageKey: string): string | null {
  if (!storageKey.startsWith(PREFIX)) return null;
  const rest = storageKey.slice(PREFIX.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? null : decodeURIComponent(rest.slice(0, dot));
}

function isKeepable(value: unknown): value is DraftValue {
  if (value === null) return true;
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** What of `values` may be kept: plain values of fields that hold no secret and no file. */
export function keepableValues(values: Record<string, unknown>, omit: readonly string[] = []): DraftValues {
  const kept: DraftValues = {};
  for (const [name, value] of Object.entries(values)) {
    if (omit.includes(name) || neverKept.test(name) || !isKeepable(value)) continue;
    kept[name] = value;
  }
  return kept;
}

function isBlank(values: DraftValues): boolean {
  return Object.values(values).every(
    (value) =>
      value === null ||
      value === false ||
      (typeof value === 'string' && value.trim() === '') ||
      (Array.isArray(value) && value.length === 0),
  );
}

/** A stored entry's save time, if it is one of ours and readable. */
function savedAt(raw: string | null): number | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredDraft>;
    return typeof parsed.savedAt === 'number' ? parsed.savedAt : null;
  } catch {
    return null;
  }
}

/** Saved within the last day (and not in the future beyond a clock's drift). */
function isFresh(at: number | null, now: number): at is number {
  return at !== null && now - at < DRAFT_LIFETIME_MS && at <= now + 60_000;
}

/** The kept values of `key` for `userId`, or null (none, unreadable, or older than a day: then removed). */
export function readDraft(userId: string, key: string, now = Date.now()): DraftValues | null {
  const store = storage();
  if (!store) return null;
  const name = entryKey(userId, key);
  try {
    const raw = store.getItem(name);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft>;
    if (!isFresh(savedAt(raw), now) || typeof parsed.values !== 'object' || parsed.values === null) {
      store.removeItem(name);
      return null;
    }
    const values = keepableValues(parsed.values as Record<string, unknown>);
    return isBlank(values) ? null : values;
  } catch {
    return null;
  }
}

/** Keeps `values` (what may be kept of them); nothing typed yet removes the entry. */
export function writeDraft(
  userId: string,
  key: string,
  values: Record<string, unknown>,
  options: { omit?: readonly string[]; now?: number } = {},
): void {
  const store = storage();
  if (!store) return;
  const name = entryKey(userId, key);
  const kept = keepableValues(values, options.omit);
  try {
    if (isBlank(kept)) store.removeItem(name);
    else store.setItem(name, JSON.stringify({ savedAt: options.now ?? Date.now(), values: kept }));
  } catch {
    // Full or switched off: the form still works, it just keeps nothing.
  }
}

export function removeDraft(userId: string, key: string): void {
  try {
    storage()?.removeItem(entryKey(userId, key));
  } catch {
    // Nothing to remove.
  }
}

/** Removes the drafts `drop` picks (by owner's id and stored text); collected first, then removed. */
function removeWhere(drop: (owner: string, raw: string | null) => boolean): void {
  const store = storage();
  if (!store) return;
  try {
    const names: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const name = store.key(i);
      const owner = name ? ownerOf(name) : null;
      if (name && owner !== null && drop(owner, store.getItem(name))) names.push(name);
    }
    for (const name of names) store.removeItem(name);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/** At sign-out: every kept draft goes, whoever typed it. */
export function clearFormDrafts(): void {
  removeWhere(() => true);
}

/** At a sign-in: another user's drafts do not stay on this device. */
export function keepOnlyDraftsOf(userId: string): void {
  removeWhere((owner) => owner !== userId);
}

/** Drafts older than a day go, whoever typed them (run when a form opens). */
export function removeExpiredDrafts(now = Date.now()): void {
  removeWhere((_owner, raw) => !isFresh(savedAt(raw), now));
}
