import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../domain/roles';
import { returnPathFrom, safeReturnPath, sessionEndedIn, signInPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/account', '/account'],
    ['/account#complaints', '/account#complaints'],
    ['/wallet', '/wallet'],
    ['/loan/info', '/loan/info'],
    ['/loan', '/loan'],
  ])('takes a borrower back to %s', (raw, expected) => {
    expect(safeReturnPath(raw, 'borrower')).toBe(expected);
  });

  it('takes staff back to a back-office page with its search', () => {
    expect(safeReturnPath('/admin/pending?phone=0917&page=2', 'officer')).toBe(
      '/admin/pending?phone=0917&page=2',
    );
    expect(safeReturnPath('/admin/loans/0d7c1f4e', 'finance')).toBe('/admin/loans/0d7c1f4e');
  });

  it.each([
    ['nothing', null],
    ['empty', ''],
    ['another site', 'https://evil.example/account'],
    ['another scheme', 'javascript:alert(1)'],
    ['a data address', 'data:text/html,<script>alert(1)</script>'],
    ['protocol-relative', '//evil.example/account'],
    ['backslash', '/\\evil.example/account'],
    ['backslash later', '/account\\..\\..\\evil'],
    ['a tab', '/\t/evil.example'],
    ['a newline', '/account\n//evil'],
    ['a relative path', 'account'],
    ['the sign-in page', '/login?next=/account'],
    ['sign-up', '/signup'],
    ['the root', '/'],
    ['an unknown page', '/nowhere'],
    ['a page that only starts like one', '/accounting'],
    ['a path that climbs out', '/account/../../admin/users'],
    ['far too long', `/account?q=${'x'.repeat(3000)}`],
  ])('refuses %s', (_name, raw) => {
    expect(safeReturnPath(raw, 'borrower')).toBeNull();
  });

  it("never sends anyone to another user kind's area", () => {
    expect(safeReturnPath('/admin/users', 'borrower')).toBeNull();
    expect(safeReturnPath('/account', 'admin')).toBeNull();
    expect(safeReturnPath('/account', null)).toBeNull();
  });

  it("whatever it is given, answers null or a path of this app in the user's own area", () => {
    const tricky = fc.oneof(
      fc.string(),
      fc.string().map((s) => `/${s}`),
      fc.string().map((s) => `//${s}`),
      fc
        .constantFrom('/account', '/admin', '/wallet', 'https:', '\\', '%2F%2F', '/%5Cevil', '@evil')
        .chain((a) => fc.string().map((b) => `${a}${b}`)),
    );
    fc.assert(
      fc.property(tricky, fc.constantFrom<Role[]>('borrower', 'officer', 'admin', 'finance'), (raw, role) => {
        const path = safeReturnPath(raw, role);
        if (path === null) return;
        expect(path.startsWith('/')).toBe(true);
        expect(path.startsWith('//')).toBe(false);
        const url = new URL(path, 'https://hiram.example');
        expect(url.origin).toBe('https://hiram.example');
        expect(url.pathname.startsWith(role === 'borrower' ? '/' : '/admin')).toBe(true);
        expect(/^\/(loan|wallet|account|admin)(\/|$)/.test(url.pathname)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('signInPath and the login query', () => {
  it('names the page to come back to, and says when the session ended', () => {
    const to = signInPath({ pathname: '/account', search: '', hash: '#complaints' }, { ended: true });
    expect(to).toBe('/login?next=%2Faccount%23complaints&ended=1');
    const search = to.slice('/login'.length);
    expect(returnPathFrom(search, 'borrower')).toBe('/account#complaints');
    expect(sessionEndedIn(search)).toBe(true);
  });

  it('plain /login for the root; no "ended" unless it did', () => {
    expect(signInPath({ pathname: '/', search: '', hash: '' }, { ended: false })).toBe('/login');
    expect(signInPath({ pathname: '/', search: '', hash: '' }, { ended: true })).toBe('/login?ended=1');
    expect(signInPath({ pathname: '/wallet', search: '', hash: '' }, { ended: false })).toBe(
      '/login?next=%2Fwallet',
    );
    expect(sessionEndedIn('?next=%2Fwallet')).toBe(false);
  });
});
