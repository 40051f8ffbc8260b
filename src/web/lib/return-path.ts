import { can } from '../../domain/permissions';
import type { Role } from '../../domain/roles';

/**
 * Where sign-in goes back to (issue #32): the page the user was on when their session ended, or the page a
 * signed-out visitor opened, carried in /login's `next`. Only a path of this app is ever followed — never
 * another site, a protocol-relative `//host`, a backslash trick or a sign-in page — and only one of the
 * signed-in user's own pages (a borrower's /loan, /wallet, /account; staff's /admin), so a link cannot send
 * anyone elsewhere (no open redirect) and another user of a shared phone lands on their own home.
 */

/** /login's query: `next` (where to go back to) and `ended=1` (the session ended: say so). */
export const returnParams = { next: 'next', ended: 'ended' } as const;

const borrowerAreas = ['/loan', '/wallet', '/account'];
const staffAreas = ['/admin'];
/** A generous bound: a list's search terms fit, a pasted essay does not. */
const MAX_LENGTH = 2000;
/** Any base works: only whether the path stays on it matters. */
const BASE = 'https://hiram.invalid';

function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

function inArea(pathname: string, areas: readonly string[]): boolean {
  return areas.some((area) => pathname === area || pathname.startsWith(`${area}/`));
}

/**
 * `raw` as a same-origin path of the user's own area (path, query and fragment), or null when it is
 * missing or anything else.
 */
export function safeReturnPath(raw: string | null | undefined, role: Role | null | undefined): string | null {
  if (!raw || !role || raw.length > MAX_LENGTH) return null;
  // A path, and nothing a browser could read as another host: "//evil", "/\evil", control characters.
  if (!raw.startsWith('/') || raw.startsWith('//') || hasControlOrBackslash(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const areas = can(role, 'backOffice.view') ? staffAreas : borrowerAreas;
  if (!inArea(url.pathname, areas)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The page sign-in should go back to, from /login's query string, for the user who just signed in. */
export function returnPathFrom(search: string, role: Role | null | undefined): string | null {
  return safeReturnPath(new URLSearchParams(search).get(returnParams.next), role);
}

/**
 * /login for a visitor without a session on `location`: with `next` to come back (not for `/`, which only
 * leads home), and `ended=1` when their session has just ended, so the page says so.
 */
export function signInPath(
  location: { pathname: string; search: string; hash: string },
  options: { ended: boolean },
): string {
  const params = new URLSearchParams();
  const here = `${location.pathname}${location.search}${location.hash}`;
  if (location.pathname !== '/' && here.length <= MAX_LENGTH) params.set(returnParams.next, here);
  if (options.ended) params.set(returnParams.ended, '1');
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}

/** Whether /login's query says the session has just ended. */
export function sessionEndedIn(search: string): boolean {
  return new URLSearchParams(search).get(returnParams.ended) === '1';
}
