import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../test/render';
import { writeDraft } from './draft-store';
import { type DraftValues, useFormDraft } from './form-draft';
import { sessionQueryKey } from './session';

const maria = makeUser({ id: '00000000-0000-4000-8000-00000000bb01' });

function wrapperFor(user: typeof maria | null) {
  const client = new QueryClient();
  client.setQueryData(sessionQueryKey, { user, csrfToken: user ? 'csrf' : null });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

beforeEach(() => window.localStorage.clear());

describe('useFormDraft', () => {
  it('gives back what was kept when the form opens, and nothing otherwise', () => {
    writeDraft(maria.id, 'complaint', { text: 'Half a sentence' });
    const kept = renderHook(() => useFormDraft<{ text: string }>('complaint'), {
      wrapper: wrapperFor(maria),
    });
    expect(kept.result.current.restored).toEqual({ text: 'Half a sentence' });
    const other = renderHook(() => useFormDraft('reply:1'), { wrapper: wrapperFor(maria) });
    expect(other.result.current.restored).toBeNull();
  });

  it('merges what each part of a form keeps under one name, and clear forgets all of it', () => {
    const wrapper = wrapperFor(maria);
    const a = renderHook(() => useFormDraft<{ message: string; reason: string }>('message:1'), { wrapper });
    act(() => a.result.current.save({ message: 'Your payment is late' }));
    act(() => a.result.current.save({ reason: 'Borrower asked' }));
    const again = renderHook(() => useFormDraft<DraftValues>('message:1'), { wrapper });
    expect(again.result.current.restored).toEqual({
      message: 'Your payment is late',
      reason: 'Borrower asked',
    });
    act(() => again.result.current.clear());
    expect(again.result.current.restored).toBeNull();
    const third = renderHook(() => useFormDraft<DraftValues>('message:1'), { wrapper });
    expect(third.result.current.restored).toBeNull();
  });

  it('reads again when its name changes (a modal opened again, or for another record)', () => {
    const wrapper = wrapperFor(maria);
    const hook = renderHook(({ name }: { name: string | null }) => useFormDraft<{ reason: string }>(name), {
      wrapper,
      initialProps: { name: 'reject:1' as string | null },
    });
    act(() => hook.result.current.save({ reason: 'First' }));
    hook.rerender({ name: null });
    expect(hook.result.current.restored).toBeNull();
    hook.rerender({ name: 'reject:1' });
    expect(hook.result.current.restored).toEqual({ reason: 'First' });
    hook.rerender({ name: 'reject:2' });
    expect(hook.result.current.restored).toBeNull();
  });

  it('keeps nothing without a signed-in user', () => {
    const hook = renderHook(() => useFormDraft<{ text: string }>('complaint'), { wrapper: wrapperFor(null) });
    act(() => hook.result.current.save({ text: 'x' }));
    expect(Object.keys(window.localStorage).filter((key) => key.startsWith('hiram.draft.'))).toEqual([]);
  });

  it('never keeps the fields the form leaves out', () => {
    const wrapper = wrapperFor(maria);
    const hook = renderHook(() => useFormDraft<DraftValues>('bank', { omit: ['accountNumber'] }), {
      wrapper,
    });
    act(() => hook.result.current.save({ bankName: 'GCash', accountNumber: '09171234567' }));
    const again = renderHook(() => useFormDraft<DraftValues>('bank'), { wrapper });
    expect(again.result.current.restored).toEqual({ bankName: 'GCash' });
  });
});
