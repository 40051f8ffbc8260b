import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/render';
import {
  makeSummary,
  officer,
  openApplicationList,
  pageOf,
  renderBackOffice,
  staffBase,
} from '../../../test/staff';

/** A stand-in for the browser's EventSource that the test drives by hand. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent | Event) => void>>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent | Event) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent | Event) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  pending(count: number) {
    const event = new MessageEvent('pending', { data: JSON.stringify({ count }) });
    act(() => {
      for (const listener of this.listeners.get('pending') ?? []) listener(event);
    });
  }
  fail() {
    act(() => {
      for (const listener of this.listeners.get('error') ?? []) listener(new Event('error'));
    });
  }
  static latest() {
    const source = FakeEventSource.instances.at(-1);
    if (!source) throw new Error('no EventSource was opened');
    return source;
  }
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  FakeEventSource.instances = [];
});

const badge = () => screen.getByTestId('pending-count');
const bell = () => screen.getByTestId('pending-bell');
const calls = (fetchMock: ReturnType<typeof mockApi>, url: string) =>
  fetchMock.mock.calls.filter(([called]) => called === url).length;

describe('live pending count', { timeout: 20_000 }, () => {
  it('shows the pushed count on the Pending item and refreshes the lists and dashboard when it changes', async () => {
    const fetchMock = mockApi({
      ...staffBase(officer, 0),
      'GET /api/staff/dashboard': { body: makeSummary() },
    });
    renderBackOffice('/admin/home');
    await screen.findByText('Registered Today');
    const source = FakeEventSource.latest();
    expect(source.url).toBe('/api/staff/events');

    source.pending(3);
    await waitFor(() => expect(badge().textContent).toBe('3'));
    expect(badge().getAttribute('aria-label')).toBe('3 pending applications');
    const dashboardCalls = calls(fetchMock, '/api/staff/dashboard');
    source.pending(4);
    await waitFor(() => expect(badge().textContent).toBe('4'));
    await waitFor(() => expect(calls(fetchMock, '/api/staff/dashboard')).toBe(dashboardCalls + 1));
    // While the stream works, nothing polls.
    const polls = calls(fetchMock, '/api/staff/pending-count');
    source.pending(4);
    expect(calls(fetchMock, '/api/staff/pending-count')).toBe(polls);
  });

  it('the pending list re-reads itself when the count changes', async () => {
    const { fetchMock } = openApplicationList('pending', []);
    await screen.findByText('No results found.');
    const source = FakeEventSource.latest();
    source.pending(1);
    const before = calls(fetchMock, '/api/staff/applications/pending');
    source.pending(2);
    await waitFor(() => expect(calls(fetchMock, '/api/staff/applications/pending')).toBe(before + 1));
  });

  it('the bell shakes for one second only when the count rises', async () => {
    openApplicationList('pending', []);
    await screen.findByText('No results found.');
    await waitFor(() => expect(badge().textContent).toBe('0'));
    const source = FakeEventSource.latest();
    const shaking = () => bell().hasAttribute('data-shaking');
    // The same count again: no ring.
    source.pending(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(shaking()).toBe(false);
    // 0 → 2 rings for about a second.
    source.pending(2);
    await waitFor(() => expect(shaking()).toBe(true));
    const rangAt = Date.now();
    await waitFor(() => expect(shaking()).toBe(false), { timeout: 2000 });
    expect(Date.now() - rangAt).toBeGreaterThan(800);
    // Going down or staying the same does not ring.
    source.pending(1);
    await waitFor(() => expect(badge().textContent).toBe('1'));
    expect(shaking()).toBe(false);
    source.pending(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(shaking()).toBe(false);
    source.pending(3);
    await waitFor(() => expect(badge().textContent).toBe('3'));
    expect(shaking()).toBe(true);
  });

  it('polls /api/staff/pending-count when the stream fails, and stops when it is back', async () => {
    let count = 5;
    const fetchMock = mockApi({
      'GET /api/me': staffBase(officer)['GET /api/me']!,
      'GET /api/staff/pending-count': () => ({ body: { count } }),
      'GET /api/staff/applications/pending': { body: pageOf([]) },
    });
    renderBackOffice('/admin/pending');
    await screen.findByText('No results found.');
    const source = FakeEventSource.latest();
    source.pending(5);
    const before = calls(fetchMock, '/api/staff/pending-count');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    count = 6;
    source.fail();
    await waitFor(() => expect(badge().textContent).toBe('6'));
    const afterError = calls(fetchMock, '/api/staff/pending-count');
    expect(afterError).toBe(before + 1);
    count = 7;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await waitFor(() => expect(badge().textContent).toBe('7'));
    expect(calls(fetchMock, '/api/staff/pending-count')).toBe(afterError + 1);

    // The browser reconnected: the stream is the source again, the poll stops.
    source.pending(7);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(calls(fetchMock, '/api/staff/pending-count')).toBe(afterError + 1);
  });
});
