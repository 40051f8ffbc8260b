import { useCallback, useEffect, useState } from 'react';
import { type DraftValues, readDraft, removeDraft, removeExpiredDrafts, writeDraft } from './draft-store';
import { useSession } from './session';

export type { DraftValues } from './draft-store';

/** What `useFormDraft` gives a form. */
export interface FormDraft<T extends DraftValues> {
  /**
   * What was kept from an earlier visit when the form opened (the user's session ended, the page was
   * reloaded, the modal was closed), to put back into the form once; null when there was nothing. Stays
   * until `clear`, so the form can say "We kept what you typed".
   */
  readonly restored: Partial<T> | null;
  /**
   * Keeps these values, merged into what is kept already (so two parts of one form may each keep their own
   * fields under one key). Call it on every change. Secrets and files are never kept (draft-store.ts).
   */
  save(values: Partial<T>): void;
  /** Forgets the kept values: after a successful submit, or when the user starts over. */
  clear(): void;
}

/**
 * Keeps a form's values while they are typed, for the signed-in user only, and gives them back when the
 * form opens again (issue #32): a borrower whose session ended while writing a complaint signs in and
 * finds the text where they left it. `key` names the form and, for a form about one record, the record
 * (`'complaint'`, `` `servicing.message:${loanId}` ``); null switches it off (a closed modal: opening it
 * again reads what is kept). Drafts last a day and go at sign-out; see draft-store.ts for what is kept.
 *
 * ```tsx
 * const draft = useFormDraft<{ text: string }>('complaint');
 * const [text, setText] = useState(() => draft.restored?.text ?? '');
 * <DraftNotice draft={draft} onStartOver={() => setText('')} />
 * <Textarea value={text} onChange={(e) => { setText(e.currentTarget.value); draft.save({ text: e.currentTarget.value }); }} />
 * // after a successful submit: draft.clear();
 * ```
 */
export function useFormDraft<T extends DraftValues = DraftValues>(
  key: string | null,
  options: { omit?: readonly string[] } = {},
): FormDraft<T> {
  const signedIn = useSession().data?.user?.id ?? null;
  // Both, or neither: nothing is kept without a form and a signed-in user.
  const userId = key !== null ? signedIn : null;
  const formKey = userId !== null ? key : null;
  const identity = userId !== null && formKey !== null ? `${userId}\u0000${formKey}` : null;
  const [state, setState] = useState(() => ({
    identity,
    restored: userId && formKey ? (readDraft(userId, formKey) as Partial<T> | null) : null,
  }));
  // Another form (or the same modal opened again): read what is kept for it, in this very render.
  let restored = state.restored;
  if (state.identity !== identity) {
    restored = userId && formKey ? (readDraft(userId, formKey) as Partial<T> | null) : null;
    setState({ identity, restored });
  }

  useEffect(() => removeExpiredDrafts(), []);

  const omit = (options.omit ?? []).join('\u0000');
  const save = useCallback(
    (values: Partial<T>) => {
      if (!userId || !formKey) return;
      const kept = readDraft(userId, formKey) ?? {};
      writeDraft(userId, formKey, { ...kept, ...values }, { omit: omit ? omit.split('\u0000') : [] });
    },
    [userId, formKey, omit],
  );
  const clear = useCallback(() => {
    if (userId && formKey) removeDraft(userId, formKey);
    setState({ identity: userId && formKey ? `${userId}\u0000${formKey}` : null, restored: null });
  }, [userId, formKey]);
  return { restored, save, clear };
}

/** A kept text value, or '' (for a form's initial state). */
export function draftText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
