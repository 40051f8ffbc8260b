import { describe, expect, it, vi } from 'vitest';
import { createIndexedDbFileStore } from './indexed-db-file-store';

/**
 * A browser's IndexedDB as far as deleting goes: which databases it has, and an `open` that is recorded
 * (and fails, as a blocked database would: what matters here is whether it was asked for).
 */
function browserWith(databases: string[] | 'cannot list') {
  const open = vi.fn(() => {
    const request = {} as IDBOpenDBRequest & { error: Error };
    queueMicrotask(() => {
      Object.assign(request, { error: new Error('not opened in this test') });
      request.onerror?.(new Event('error'));
    });
    return request;
  });
  const factory = {
    open,
    ...(databases === 'cannot list'
      ? {}
      : { databases: async () => databases.map((name) => ({ name, version: 1 })) }),
  } as unknown as IDBFactory;
  return { factory, open };
}

describe('forgetting drafts on a device without any (IndexedDB)', () => {
  it('does not create the drafts database to empty it', async () => {
    const { factory, open } = browserWith(['another-app']);
    const store = createIndexedDbFileStore(factory);
    await store.deleteAllBut('ben/');
    await store.deleteAllBut(null);
    await store.deletePrefix('ana/');
    expect(open).not.toHaveBeenCalled();
  });

  it('opens it when it exists, or when the browser cannot say', async () => {
    for (const browser of [browserWith(['hiram-drafts']), browserWith('cannot list')]) {
      const store = createIndexedDbFileStore(browser.factory);
      await expect(store.deleteAllBut('ben/')).rejects.toThrow('not opened in this test');
      expect(browser.open).toHaveBeenCalledWith('hiram-drafts', 1);
    }
  });
});
