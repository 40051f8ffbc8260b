import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionIdHash } from '../../auth/sessions';
import { expectError } from '../../test-support/api-assertions';
import { type Agent, createTestApp, TEST_SESSION_SECRET, type TestApp } from '../../test-support/test-app';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const sessionsOf = (userId: string) =>
    t.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
  const idHashOf = (agent: Agent) => sessionIdHash(TEST_SESSION_SECRET, agent.cookies.get('hiram_session')!);
  const me = (agent: Agent) => agent.get('/api/me');

  const borrower = async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    return { user, password, agent: await t.loginAs(user.phone!, password) };
  };

  it('signed out, /api/me answers null', async () => {
    const response = await me(t.agent());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user: null, csrfToken: null });
  });

  it('the session cookie is httpOnly, SameSite=Lax, path /, not Secure over plain HTTP', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const response = await t.agent().post('/api/auth/login', { identifier: user.phone, password });
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/^hiram_session=[\w-]{40,};/);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//i);
    expect(header).not.toMatch(/; Secure/i);
    expect(header).not.toMatch(/Expires|Max-Age/i); // a browser-session cookie; the server decides expiry
  });

  it('the database keeps only a keyed hash of the session token', async () => {
    const { user, agent } = await borrower();
    const token = agent.cookies.get('hiram_session')!;
    const [row] = await sessionsOf(user.id);
    expect(row!.id_hash).toBe(idHashOf(agent));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('GET /api/me returns the signed-in user and the CSRF token', async () => {
    const { user, agent } = await borrower();
    const response = await me(agent);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: {
        id: user.id,
        username: null,
        phone: user.phone,
        role: 'borrower',
        status: 'active',
        mustChangePassword: false,
        avatar: 1,
        createdAt: user.created_at.toISOString(),
        lastLoginAt: expect.any(String),
        privacyConsentRequired: false,
        language: 'en',
      },
      csrfToken: agent.csrfToken,
    });
    expect(JSON.stringify(response.body)).not.toContain('argon2');
  });

  it('rotates the session id at login: the old cookie is dead afterwards', async () => {
    const { user, password, agent } = await borrower();
    const before = agent.clone();
    const oldToken = agent.cookies.get('hiram_session');
    await t.loginAs(user.phone!, password, agent);
    expect(agent.cookies.get('hiram_session')).not.toBe(oldToken);
    expect(agent.csrfToken).not.toBe(before.csrfToken);
    expect((await me(agent)).body.user?.id).toBe(user.id);
    expect((await me(before)).body).toEqual({ user: null, csrfToken: null });
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it('logging in as someone else ends the previous session of that browser', async () => {
    const first = await borrower();
    const second = await t.createUser({ role: 'borrower' });
    const old = first.agent.clone();
    await t.loginAs(second.user.phone!, second.password, first.agent);
    expect((await me(first.agent)).body.user.id).toBe(second.user.id);
    expect((await me(old)).body.user).toBeNull();
    expect(await sessionsOf(first.user.id)).toEqual([]);
  });

  it('logout destroys the server session and clears the cookie', async () => {
    const { user, agent } = await borrower();
    const old = agent.clone();
    const idHash = idHashOf(agent);
    expect(
      await t.db.selectFrom('sessions').select('user_id').where('id_hash', '=', idHash).execute(),
    ).toEqual([{ user_id: user.id }]);
    const response = await agent.post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(String(response.headers['set-cookie'])).toMatch(/^hiram_session=;.*Expires=Thu, 01 Jan 1970/i);
    expect(agent.cookies.has('hiram_session')).toBe(false);
    expect(await sessionsOf(user.id)).toEqual([]);
    // Replaying the old cookie gets nothing.
    expect((await me(old)).body).toEqual({ user: null, csrfToken: null });
  });

  it('logout only ends its own session', async () => {
    const { user, password, agent } = await borrower();
    const other = await t.loginAs(user.phone!, password);
    await agent.post('/api/auth/logout');
    expect((await me(other)).body.user.id).toBe(user.id);
  });

  it('logout while signed out is harmless', async () => {
    const response = await t.agent().post('/api/auth/logout');
    expect(response.status).toBe(200);
  });

  describe('CSRF', () => {
    it('a signed-in write without the X-CSRF-Token header is refused and changes nothing', async () => {
      const { user, agent } = await borrower();
      const response = await agent.post('/api/auth/logout', undefined, { csrf: false });
      expectError(response, 403, 'CSRF_FAILED');
      expect(await sessionsOf(user.id)).toHaveLength(1);
      expect((await me(agent)).body.user.id).toBe(user.id);
    });

    it('a wrong token, or the token of another session, is refused', async () => {
      const a = await borrower();
      const b = await borrower();
      for (const token of ['nope', b.agent.csrfToken!, `${a.agent.csrfToken}x`]) {
        const response = await a.agent.post('/api/auth/logout', undefined, {
          csrf: false,
          headers: { 'x-csrf-token': token },
        });
        expectError(response, 403, 'CSRF_FAILED');
      }
      expect(await sessionsOf(a.user.id)).toHaveLength(1);
    });

    it('a password change without the token is refused and the password stays', async () => {
      const { user, password, agent } = await borrower();
      const response = await agent.post(
        '/api/auth/password',
        { currentPassword: password, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
        { csrf: false },
      );
      expectError(response, 403, 'CSRF_FAILED');
      expect((await t.agent().post('/api/auth/login', { identifier: user.phone, password })).status).toBe(
        200,
      );
    });

    it('reads need no token', async () => {
      const { agent } = await borrower();
      expect((await agent.get('/api/me', { csrf: false })).status).toBe(200);
    });

    it('a cross-origin Origin is refused, signed in or not, even for login', async () => {
      const { user, password, agent } = await borrower();
      const evil = { origin: 'https://evil.example' };
      expectError(await agent.post('/api/auth/logout', undefined, { headers: evil }), 403, 'CSRF_FAILED');
      expect(await sessionsOf(user.id)).toHaveLength(1);

      const login = await t
        .agent()
        .post('/api/auth/login', { identifier: user.phone, password }, { headers: evil });
      expectError(login, 403, 'CSRF_FAILED');
      expect(login.headers['set-cookie']).toBeUndefined();
      expect(await sessionsOf(user.id)).toHaveLength(1);

      const signup = await t
        .agent()
        .post('/api/auth/signup/code', { phone: t.nextPhone() }, { headers: evil });
      expectError(signup, 403, 'CSRF_FAILED');
    });

    it('a same-origin Origin is accepted', async () => {
      const { user, password } = await t.createUser({ role: 'borrower' });
      const headers = { host: 'hiram.test', origin: 'http://hiram.test' };
      const agent = t.agent();
      const login = await agent.post('/api/auth/login', { identifier: user.phone, password }, { headers });
      expect(login.status).toBe(200);
      expect((await agent.post('/api/auth/logout', undefined, { headers })).status).toBe(200);
    });
  });

  describe('expiry', () => {
    it('refuses and deletes a session past its absolute expiry', async () => {
      const { user, agent } = await borrower();
      await sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.id}`.execute(
        t.db,
      );
      expect((await me(agent)).body).toEqual({ user: null, csrfToken: null });
      expect(await sessionsOf(user.id)).toEqual([]);
    });

    it('refuses a borrower session idle for more than 24 hours', async () => {
      const { user, agent } = await borrower();
      await sql`update sessions set last_seen_at = now() - interval '24 hours 1 minute' where user_id = ${user.id}`.execute(
        t.db,
      );
      expect((await me(agent)).body.user).toBeNull();
      expect(await sessionsOf(user.id)).toEqual([]);
    });

    it('keeps a borrower session idle for an hour and refreshes last_seen_at', async () => {
      const { user, agent } = await borrower();
      await sql`update sessions set last_seen_at = now() - interval '1 hour' where user_id = ${user.id}`.execute(
        t.db,
      );
      expect((await me(agent)).body.user.id).toBe(user.id);
      const [row] = await sessionsOf(user.id);
      expect(Date.now() - row!.last_seen_at.getTime()).toBeLessThan(60_000);
    });

    it('refuses a staff session idle for more than 30 minutes (the default STAFF_SESSION_IDLE_MINUTES)', async () => {
      const { user, password } = await t.createUser({ role: 'officer' });
      const agent = await t.loginAs(user.username!, password);
      await sql`update sessions set last_seen_at = now() - interval '29 minutes' where user_id = ${user.id}`.execute(
        t.db,
      );
      expect((await me(agent)).body.user.id).toBe(user.id);
      await sql`update sessions set last_seen_at = now() - interval '31 minutes' where user_id = ${user.id}`.execute(
        t.db,
      );
      t.forgetCachedSessions();
      expect((await me(agent)).body.user).toBeNull();
    });

    describe('requests the app makes on its own do not count as activity (docs/decisions/073)', () => {
      const staffIdleFor = async (minutes: number) => {
        const { user, password } = await t.createUser({ role: 'officer' });
        const agent = await t.loginAs(user.username!, password);
        const setIdle = async (idle: number) => {
          await sql`update sessions set last_seen_at = now() - make_interval(mins => ${idle}) where user_id = ${user.id}`.execute(
            t.db,
          );
          t.forgetCachedSessions();
        };
        await setIdle(minutes);
        const idleMinutes = async () => {
          const [row] = await sessionsOf(user.id);
          return row ? (Date.now() - row.last_seen_at.getTime()) / 60_000 : null;
        };
        return { user, agent, setIdle, idleMinutes };
      };
      const unattended = { headers: { 'x-hiram-unattended': '1' } };

      it('an unattended request is answered but leaves the idle clock running, so the session still ends', async () => {
        const { user, agent, setIdle, idleMinutes } = await staffIdleFor(29);
        expect((await agent.get('/api/me', unattended)).body.user.id).toBe(user.id);
        expect(await idleMinutes()).toBeGreaterThan(28.5);
        expect((await agent.get('/api/staff/dashboard', unattended)).status).toBe(200);
        expect(await idleMinutes()).toBeGreaterThan(28.5);
        await setIdle(31);
        expect((await agent.get('/api/staff/dashboard', unattended)).status).toBe(401);
        expect(await sessionsOf(user.id)).toEqual([]);
      });

      it('the next attended request counts: the clock starts again', async () => {
        const { agent, idleMinutes } = await staffIdleFor(29);
        await agent.get('/api/me', unattended);
        expect((await agent.get('/api/staff/dashboard')).status).toBe(200);
        expect(await idleMinutes()).toBeLessThan(1);
      });

      it("the live badge's poll and stream never count, with or without the header", async () => {
        const { agent, idleMinutes } = await staffIdleFor(10);
        expect((await agent.get('/api/staff/pending-count')).status).toBe(200);
        expect((await agent.request('HEAD', '/api/staff/events')).status).toBe(200);
        expect(await idleMinutes()).toBeGreaterThan(9.5);
      });
    });

    it('staff sessions expire after 12 hours, borrower sessions after 7 days', async () => {
      const staff = await t.createUser({ role: 'admin' });
      await t.loginAs(staff.user.username!, staff.password);
      const { user } = await borrower();
      const lifetime = async (userId: string) => {
        const [row] = await sessionsOf(userId);
        return (row!.expires_at.getTime() - row!.created_at.getTime()) / 3_600_000;
      };
      expect(await lifetime(staff.user.id)).toBeCloseTo(12, 2);
      expect(await lifetime(user.id)).toBeCloseTo(7 * 24, 2);
    });

    it('ends the session of a user who was deactivated meanwhile', async () => {
      const { user, agent } = await borrower();
      await t.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', user.id).execute();
      expect((await me(agent)).body.user).toBeNull();
      expect(await sessionsOf(user.id)).toEqual([]);
    });

    it('an unknown or malformed cookie is simply signed out', async () => {
      for (const value of ['garbage', '', 'a'.repeat(5000)]) {
        const agent = t.agent();
        agent.cookies.set('hiram_session', value);
        const response = await me(agent);
        expect(response.status).toBe(200);
        expect(response.body.user).toBeNull();
      }
    });
  });

  describe('behind HTTPS (PUBLIC_URL)', () => {
    let secure: TestApp;
    beforeAll(async () => {
      secure = await createTestApp({ config: { secureCookies: true, publicUrl: 'https://hiram.example' } });
    });
    afterAll(() => secure?.close());

    it('uses a __Host- Secure cookie and accepts only the public origin', async () => {
      const { user, password } = await secure.createUser({ role: 'borrower' });
      const body = { identifier: user.phone, password };
      const refused = await secure.agent().post('/api/auth/login', body, {
        headers: { origin: 'http://localhost:80' },
      });
      expectError(refused, 403, 'CSRF_FAILED');

      const agent = secure.agent();
      const response = await agent.post('/api/auth/login', body, {
        headers: { origin: 'https://hiram.example' },
      });
      expect(response.status).toBe(200);
      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(/^__Host-hiram_session=/);
      expect(header).toMatch(/; Secure/i);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Lax/i);
      expect(header).toMatch(/; Path=\//i);
      expect(header).not.toMatch(/Domain=/i);
      expect((await agent.get('/api/me')).body.user.id).toBe(user.id);
      expect(response.headers['strict-transport-security']).toMatch(/max-age=/);
    });
  });
});
