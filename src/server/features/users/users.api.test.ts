import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBorrowerWithApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let admin: Agent;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.createUser({ role: 'admin' });
  adminId = a.user.id;
  admin = await t.loginAs(a.user.username!, a.password);
});
afterAll(() => t.close());

describe('user management', () => {
  it('adds a user (role case-insensitive) who must change the password at first login', async () => {
    const phone = t.nextPhone();
    const created = await admin.post('/api/admin/users', {
      username: 'Teller01',
      password: 'first pass 1',
      phone,
      role: 'FINANCE',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'Teller01',
      role: 'finance',
      mustChangePassword: true,
      status: 'active',
    });
    const agent = await t.loginAs('teller01', 'first pass 1');
    expect((await agent.get('/api/staff/dashboard')).body.error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const list = await admin.get(`/api/admin/users?phone=${phone.slice(-6)}`);
    expect(list.body.items.map((u: { id: string }) => u.id)).toEqual([created.body.id]);
  });

  it.each([
    [{}, 'Please fill all fields.'],
    [{ username: 'x1', password: 'tamaraw herd 9', phone: '09171234567' }, 'Please fill all fields.'],
    [
      { username: 'valid_name', password: 'tamaraw herd 9', phone: '09171234567', role: 'boss' },
      'Unknown role.',
    ],
    [
      { username: 'valid_name', password: 'short', phone: '09171234567', role: 'officer' },
      'Password must be at least 8 characters',
    ],
    [
      { username: 'valid_name', password: 'tamaraw herd 9', phone: '123', role: 'officer' },
      'Phone number must be at least 10 digits and contain only numbers',
    ],
    [
      { username: '12345', password: 'tamaraw herd 9', phone: '09171234567', role: 'officer' },
      /^Username must be/,
    ],
  ])('refuses %j', async (body, message) => {
    const response = await admin.post('/api/admin/users', body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('refuses a duplicate phone or username', async () => {
    const phone = t.nextPhone();
    expect(
      (
        await admin.post('/api/admin/users', {
          username: 'dupe_one',
          password: 'tamaraw herd 9',
          phone,
          role: 'officer',
        })
      ).status,
    ).toBe(201);
    const samePhone = await admin.post('/api/admin/users', {
      username: 'dupe_two',
      password: 'tamaraw herd 9',
      phone,
      role: 'officer',
    });
    expect(samePhone.status).toBe(409);
    expect(samePhone.body.error.message).toBe('Phone number or username already in use');
    const sameName = await admin.post('/api/admin/users', {
      username: 'DUPE_ONE',
      password: 'tamaraw herd 9',
      phone: t.nextPhone(),
      role: 'officer',
    });
    expect(sameName.body.error.message).toBe('Phone number or username already in use');
  });

  it('updates phone and password (temporary; sessions end)', async () => {
    const { user, password } = await t.createUser({ role: 'officer' });
    const agent = await t.loginAs(user.username!, password);
    const empty = await admin.post(`/api/admin/users/${user.id}`, { phone: '', password: '' });
    expect(empty.body.error.message).toBe('Phone and password cannot be empty.');
    const phone = t.nextPhone();
    const updated = await admin.post(`/api/admin/users/${user.id}`, { phone, password: 'temp pass 99' });
    expect(updated.body).toMatchObject({ phone, mustChangePassword: true });
    expect((await agent.get('/api/me')).body.user).toBeNull();
    await t.loginAs(phone, 'temp pass 99');
  });

  it('deletes a user without records, deactivates one with a loan (login refused, data kept)', async () => {
    const plain = await t.createUser({ role: 'officer' });
    expect((await admin.request('DELETE', `/api/admin/users/${plain.user.id}`)).body.outcome).toBe('deleted');
    expect(
      await t.db.selectFrom('users').select('id').where('id', '=', plain.user.id).executeTakeFirst(),
    ).toBeUndefined();

    const { borrower: b, id: loanId } = await seedBorrowerWithApplication(t, { status: 'approved' });
    const session = await t.loginAs(b.phone, b.password);
    expect((await admin.request('DELETE', `/api/admin/users/${b.user.id}`)).body.outcome).toBe('deactivated');
    expect((await session.get('/api/me')).body.user).toBeNull();
    const login = await t.agent().post('/api/auth/login', { identifier: b.phone, password: b.password });
    expect(login.body.error.message).toBe('This account is deactivated');
    expect(
      await t.db.selectFrom('applications').select('id').where('id', '=', loanId).executeTakeFirst(),
    ).toBeDefined();
  });

  it('nobody deletes or demotes themselves', async () => {
    expect((await admin.request('DELETE', `/api/admin/users/${adminId}`)).body.error.code).toBe(
      'CANNOT_CHANGE_SELF',
    );
    const self = await admin.post(`/api/admin/users/${adminId}`, {
      phone: t.nextPhone(),
      password: 'tamaraw herd 9',
      role: 'officer',
    });
    expect(self.body.error.code).toBe('CANNOT_CHANGE_SELF');
  });

  it('is admin only', async () => {
    for (const role of ['officer', 'finance'] as const) {
      const { user, password } = await t.createUser({ role });
      const agent = await t.loginAs(user.username!, password);
      expect((await agent.get('/api/admin/users')).status).toBe(403);
      expect((await agent.get('/api/admin/audit')).status).toBe(403);
    }
  });
});

describe('reactivation', () => {
  const reactivate = (agent: Agent, id: string, body: unknown = { reason: 'Back from leave' }) =>
    agent.post(`/api/admin/users/${id}/reactivate`, body);
  const row = (id: string) =>
    t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('reactivates with a reason: a temporary password, a forced change, one audit event, one live event', async () => {
    const { user, password } = await t.createUser({ role: 'officer', status: 'deactivated' });
    const events: string[] = [];
    const unsubscribe = t.deps.events.subscribe((event) => events.push(event.type));
    try {
      const response = await reactivate(admin, user.id);
      expect(response.status, response.text).toBe(200);
      const temporary: string = response.body.temporaryPassword;
      expect(temporary).toMatch(/^[A-Za-z2-9]{14}$/);
      expect(await row(user.id)).toMatchObject({ status: 'active', must_change_password: true });
      await expect.poll(() => events).toContain('users-changed');

      // The password from before the deactivation no longer opens the account.
      const old = await t.agent().post('/api/auth/login', { identifier: user.username, password });
      expect(old.body.error.code).toBe('INVALID_CREDENTIALS');
      const login = await t
        .agent()
        .post('/api/auth/login', { identifier: user.username, password: temporary });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ mustChangePassword: true });
      const agent = await t.loginAs(user.username!, temporary);
      expect((await agent.get('/api/staff/dashboard')).body.error.code).toBe('PASSWORD_CHANGE_REQUIRED');
      const changed = await agent.post('/api/auth/password', {
        currentPassword: temporary,
        newPassword: 'my own pass 7',
        confirmPassword: 'my own pass 7',
      });
      expect(changed.status, changed.text).toBe(200);
      expect((await agent.get('/api/staff/dashboard')).status).toBe(200);

      const audit = await t.db
        .selectFrom('audit_events')
        .selectAll()
        .where('target_id', '=', user.id)
        .where('action', '=', 'user.reactivate')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_id: adminId, reason: 'Back from leave' });
      expect(JSON.stringify(audit[0]!.changes)).not.toContain(temporary);
    } finally {
      unsubscribe();
    }
  });

  it('reactivates a borrower deactivated because they own a loan; they sign in with the phone', async () => {
    const { borrower: b } = await seedBorrowerWithApplication(t, { status: 'approved' });
    expect((await admin.request('DELETE', `/api/admin/users/${b.user.id}`)).body.outcome).toBe('deactivated');
    const response = await reactivate(admin, b.user.id);
    expect(response.status, response.text).toBe(200);
    const agent = await t.loginAs(b.phone, response.body.temporaryPassword);
    expect((await agent.get('/api/wallet')).body.error.code).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('needs a reason, and changes nothing without one', async () => {
    const { user } = await t.createUser({ role: 'finance', status: 'deactivated' });
    for (const body of [{}, { reason: '   ' }]) {
      const response = await reactivate(admin, user.id, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'REASON_REQUIRED',
        message: 'A reason is required.',
      });
    }
    expect(await row(user.id)).toMatchObject({ status: 'deactivated', must_change_password: false });
  });

  it('refuses an active user with a clear 409, and an unknown one with 404', async () => {
    const { user } = await t.createUser({ role: 'officer' });
    const response = await reactivate(admin, user.id);
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'USER_ALREADY_ACTIVE',
      message: 'This user is already active.',
    });
    expect(await row(user.id)).toMatchObject({ status: 'active', must_change_password: false });
    expect((await reactivate(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('is admin only', async () => {
    const { user } = await t.createUser({ role: 'officer', status: 'deactivated' });
    for (const role of ['officer', 'finance'] as const) {
      const staff = await t.createUser({ role });
      const agent = await t.loginAs(staff.user.username!, staff.password);
      expect((await reactivate(agent, user.id)).status).toBe(403);
    }
    const borrower = await t.signUpBorrower();
    expect((await reactivate(await t.loginAs(borrower.phone, borrower.password), user.id)).status).toBe(403);
    expect((await row(user.id)).status).toBe('deactivated');
  });

  it('brings back a deactivated admin, who must choose a new password before acting', async () => {
    const b = await t.createUser({ role: 'admin', status: 'deactivated' });
    const response = await reactivate(admin, b.user.id, { reason: 'Rehired' });
    expect(response.status, response.text).toBe(200);
    const agentB = await t.loginAs(b.user.username!, response.body.temporaryPassword);
    expect((await agentB.get('/api/admin/users')).body.error.code).toBe('PASSWORD_CHANGE_REQUIRED');
  });
});

describe('last admin', () => {
  it('survives two admins removing each other at the same time', async () => {
    const t2 = await createTestApp();
    try {
      const a = await t2.createUser({ role: 'admin' });
      const b = await t2.createUser({ role: 'admin' });
      const [agentA, agentB] = await Promise.all([
        t2.loginAs(a.user.username!, a.password),
        t2.loginAs(b.user.username!, b.password),
      ]);
      const results = await Promise.all([
        agentA.request('DELETE', `/api/admin/users/${b.user.id}`),
        agentB.request('DELETE', `/api/admin/users/${a.user.id}`),
      ]);
      const outcomes = results.map((r) => r.body.outcome ?? r.body.error?.code);
      // Exactly one wins; the other finds it would remove the last admin (or its session already ended).
      expect(outcomes.filter((o) => o === 'deleted')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'LAST_ADMIN' || o === 'UNAUTHENTICATED')).toHaveLength(1);
      const active = await t2.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .where('status', '=', 'active')
        .execute();
      expect(active).toHaveLength(1);
    } finally {
      await t2.close();
    }
  });
});

// Last in the file: it adds 1,200 accounts the tests above must not see.
describe('a long list: totals are exact up to 1,000 rows from the page, then "1,000+"', () => {
  it('caps the total on page 1, counts exactly near the end, and finds the end past it', async () => {
    await sql`
      insert into users (username, password_hash, role, created_at)
      select 'bulk' || g, '$argon2id$bulk', 'officer', now() - g * interval '1 minute'
      from generate_series(1, 1200) g`.execute(t.db);
    const { count } = await t.db
      .selectFrom('users')
      .select(sql<string>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    const all = Number(count);

    const first = await admin.get('/api/admin/users');
    expect(first.body).toMatchObject({ page: 1, total: 1000, totalCapped: true, pageCount: 100 });
    expect(first.body.items).toHaveLength(10);

    // From page 100 (row 991) on, fewer than 1,000 rows remain: the total is exact again.
    const late = await admin.get('/api/admin/users?page=100');
    expect(late.body).toMatchObject({ total: all, totalCapped: false, pageCount: Math.ceil(all / 10) });
    // Newest first, and page 100 continues where page 99 stopped.
    const before = await admin.get('/api/admin/users?page=99');
    const at = (body: { items: { createdAt: string }[] }) => body.items.map((u) => u.createdAt);
    expect(at(before.body).at(-1)! >= at(late.body)[0]!).toBe(true);

    const past = await admin.get('/api/admin/users?page=500');
    expect(past.body).toMatchObject({ items: [], total: all, totalCapped: false });
  });
});
