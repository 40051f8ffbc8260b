import type { Locator, Page, Request } from 'playwright-core';
import { transitionsDone } from './support/browser';

/**
 * Screens opened inside the running app, the way its own links open them, for the specs that look at many
 * screens (layout, accessibility): a `page.goto` per screen downloads and boots the app and restores the
 * session every time, which was most of those specs' time. A spec about loading itself still uses goto.
 */

const MARK = 'data-e2e-earlier';

/**
 * Waits until signing in has landed on the home screen: past `/login`, and past the redirects on the way
 * (`/` and `/loan` → `/loan/application`, `/admin` → `/admin/home`). An `openInApp` fired before the last
 * redirect is overtaken by it (the CI run of stop 43 opened /wallet, then the app went on to step 1).
 * Not for a user held at a gate (new privacy notice, password to change): the gate stays at `/loan`.
 */
export async function landedAfterSignIn(page: Page): Promise<void> {
  await page.waitForURL(
    (url) => !['/login', '/', '/loan', '/admin'].includes(url.pathname.replace(/\/$/, '') || '/'),
  );
}

/**
 * Goes to `path` without reloading: React Router's BrowserRouter follows `history.pushState` and the
 * `popstate` event, as it does for the browser's back button. Every element already on the page is marked
 * first, so `fresh()` tells what the new screen drew from what is left of the previous one (a list reused
 * by the next list, the heading of the screen being left). When the page is at `path` already, nothing
 * moves and nothing on it counts as earlier.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate(
    ([to, mark]) => {
      // Already there (signing in lands on the home screen): what is on the page is that screen.
      if (window.location.pathname + window.location.search + window.location.hash === to) {
        for (const element of document.body.querySelectorAll(`[${mark}]`)) element.removeAttribute(mark);
        return;
      }
      for (const element of document.body.querySelectorAll('*')) element.setAttribute(mark, '');
      // The state React Router's history keeps (its index lets it tell back from forward).
      const state = window.history.state as { idx?: number } | null;
      window.history.pushState(
        { usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state?.idx ?? 0) + 1 },
        '',
        to,
      );
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    [path, MARK] as const,
  );
}

/** Only the elements drawn since the last `openInApp` (or `markEarlier`): the screen that was opened. */
export function fresh(page: Page, locator: Locator): Locator {
  return locator.and(page.locator(`:not([${MARK}])`));
}

/** Marks what is on the page now, before a click that changes the screen without `openInApp`. */
export async function markEarlier(page: Page): Promise<void> {
  await page.evaluate((mark) => {
    for (const element of document.body.querySelectorAll('*')) element.setAttribute(mark, '');
  }, MARK);
}

const inFlight = new WeakMap<Page, Set<Request>>();

/**
 * Counts the page's requests in flight, for `settled`; call it when the page is made. The staff events
 * stream (an EventSource) never ends and is left out.
 */
export function trackRequests(page: Page): Page {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => {
    if (request.resourceType() !== 'eventsource' && request.resourceType() !== 'websocket') open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return page;
}

/** A spinner or a region still marked busy, anywhere on the page (a button's spinner included). */
function stillLoading(): boolean {
  const visible = (element: Element) => element.getClientRects().length > 0;
  return [...document.querySelectorAll('.mantine-Loader-root, [aria-busy="true"]')].some(visible);
}

/**
 * Waits until the screen is finished: no request in flight and no spinner or busy region, twice in a row
 * two frames apart (an answer that arrives renders, and may ask for more), then the transitions (a dialog
 * fading in, a section opening; endless ones such as a spinner's aside) and the fonts. Throws when the
 * screen is still loading after `timeout`: a screenshot, a layout or an axe check of a half-drawn screen
 * would prove nothing. `network: false` for a page whose requests are held back on purpose.
 */
export async function settled(
  page: Page,
  { network = true, timeout = 15_000 }: { network?: boolean; timeout?: number } = {},
): Promise<void> {
  const open = inFlight.get(page);
  if (network && !open) throw new Error('settled(): call trackRequests(page) when the page is made');
  const deadline = Date.now() + timeout;
  for (let calm = 0; calm < 2; ) {
    const busy = (network && open!.size > 0) || (await page.evaluate(stillLoading));
    if (!busy) {
      calm += 1;
      await page.evaluate(
        () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
      );
      continue;
    }
    calm = 0;
    if (Date.now() > deadline) {
      const pending = network ? [...open!].map((r) => `${r.method()} ${r.url()}`) : [];
      throw new Error(
        `still loading after ${timeout} ms${pending.length ? `: ${pending.join(', ')}` : ' (a spinner or a busy region)'}`,
      );
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  await transitionsDone(page, 5_000);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * A back-office list once drawn: its rows, or an empty list's message, which sits under the table (an empty
 * table has no body rows). `noResults` in the page's language.
 */
export function listShown(page: Page, noResults = 'No results found.'): Locator {
  return page.locator('tbody tr').or(page.getByText(noResults, { exact: true }));
}
