import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complaintReferencePattern } from '../../../domain/schemas/complaints';
import { exifTags } from '../../test-support/exiftool';
import { jpegWithGps, multipartBody, pdfBytes } from '../../test-support/images';
import { seedBorrowerWithApplication } from '../../test-support/seed';
import { deliverOutboxAtNoon } from '../../test-support/sms-outbox';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';

/**
 * Complaints (issue #14; RA 11765 redress): a borrower files one with a reference number and follows its
 * status and replies; officers and admins work the queue (reply, assign, resolve, all audited), finance
 * cannot; a borrower sees only their own; resolving is race-safe; references are unique.
 */
const clock = shiftedClock();
let t: TestApp;
let officer: Agent;
let admin: Agent;
let finance: Agent;
let officerId: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const o = await t.createUser({ role: 'officer' });
  const a = await t.createUser({ role: 'admin' });
  const f = await t.createUser({ role: 'finance' });
  officerId = o.user.id;
  adminId = a.user.id;
  officer = await t.loginAs(o.user.username!, o.password);
  admin = await t.loginAs(a.user.username!, a.password);
  finance = await t.loginAs(f.user.username!, f.password);
});
afterAll(() => t.close());

async function borrower(fullName = 'Juan Dela Cruz') {
  const { borrower: b } = await seedBorrowerWithApplication(t, { fullName, status: 'approved' });
  return { ...b, agent: await t.loginAs(b.phone, b.password) };
}

function file(agent: Agent, fields: Record<string, string>, picture?: Buffer, contentType = 'image/jpeg') {
  const body = multipartBody(
    fields,
    picture ? [{ name: 'picture', filename: 'photo.jpg', contentType, data: picture }] : [],
  );
  return agent.request('POST', '/api/complaints', {
    raw: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

const outbox = async (phone: string) =>
  (await t.local().get(`/api/dev/outbox?phone=${phone}`)).body.messages as {
    text: string;
    purpose: string;
  }[];

describe('filing a complaint', () => {
  it('gives a readable reference, keeps the picture re-encoded and shows it received', async () => {
    const b = await borrower();
    const response = await file(
      b.agent,
      { category: 'collection_practices', text: '  An agent called me at 11 pm.  ' },
      await jpegWithGps(400, 300),
    );
    expect(response.status, response.text).toBe(201);
    const year = new Intl.DateTimeFormat('en', { timeZone: 'Asia/Manila', year: 'numeric' }).format(
      new Date(),
    );
    expect(response.body.reference).toMatch(complaintReferencePattern);
    expect(response.body.reference.startsWith(`C-${year}-`)).toBe(true);
    expect(response.body).toMatchObject({
      category: 'collection_practices',
      text: 'An agent called me at 11 pm.',
      status: 'received',
      hasPicture: true,
      replies: [],
      resolvedAt: null,
    });

    const picture = await b.agent.get(`/api/complaints/${response.body.id}/picture`);
    expect(picture.status).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    const tags = await exifTags(picture.rawPayload);
    expect(Object.keys(tags).filter((tag) => /GPS/i.test(tag))).toEqual([]);

    const mine = await b.agent.get('/api/complaints');
    expect(mine.body.complaints.map((c: { reference: string }) => c.reference)).toEqual([
      response.body.reference,
    ]);
  });

  it('refuses a picture that is not one, an unknown category and an empty text, filing nothing', async () => {
    const b = await borrower();
    const fake = await file(b.agent, { category: 'payments', text: 'x' }, pdfBytes);
    expect(fake.status).toBe(400);
    expect(fake.body.error.code).toBe('IMAGE_INVALID');
    expect(fake.body.error.fields.picture.code).toBe('IMAGE_INVALID');
    const category = await file(b.agent, { category: 'weather', text: 'x' });
    expect(category.body.error.fields.category.code).toBe('COMPLAINT_CATEGORY_INVALID');
    const empty = await file(b.agent, { category: 'payments', text: '   ' });
    expect(empty.body.error.fields.text.code).toBe('COMPLAINT_TEXT_REQUIRED');
    expect((await b.agent.get('/api/complaints')).body.complaints).toEqual([]);
  });

  it('gives every complaint its own reference, even filed at the same moment', async () => {
    const people = await Promise.all([1, 2, 3].map(() => borrower()));
    const filed = await Promise.all(
      people.flatMap((p) =>
        [1, 2, 3, 4].map((n) => file(p.agent, { category: 'other', text: `Complaint ${n}` })),
      ),
    );
    for (const response of filed) expect(response.status, response.text).toBe(201);
    const references = filed.map((r) => r.body.reference as string);
    expect(new Set(references).size).toBe(references.length);
    for (const reference of references) expect(reference).toMatch(complaintReferencePattern);
  });
});

describe('who sees and handles complaints', () => {
  it('a borrower sees only their own complaints and pictures', async () => {
    const first = await borrower();
    const second = await borrower();
    const filed = await file(first.agent, { category: 'privacy', text: 'Mine' }, await jpegWithGps(50, 50));
    expect((await second.agent.get('/api/complaints')).body.complaints).toEqual([]);
    const picture = await second.agent.get(`/api/complaints/${filed.body.id}/picture`);
    expect(picture.status).toBe(404);
    // Nor through the staff routes.
    expect((await second.agent.get(`/api/staff/complaints/${filed.body.id}`)).status).toBe(403);
    expect(
      (await second.agent.post(`/api/staff/complaints/${filed.body.id}/replies`, { message: 'hi' })).status,
    ).toBe(403);
  });

  it('officers and admins reply, assign and resolve; finance can do none of it', async () => {
    const b = await borrower('Finance Check');
    const filed = await file(b.agent, { category: 'fees_and_charges', text: 'Why this fee?' });
    const id = filed.body.id as string;
    for (const [path, body] of [
      [`/api/staff/complaints/${id}/replies`, { message: 'x' }],
      [`/api/staff/complaints/${id}/assign`, { assigneeId: officerId }],
      [`/api/staff/complaints/${id}/resolve`, { note: 'x' }],
    ] as const) {
      const response = await finance.post(path, body);
      expect(response.status, path).toBe(403);
    }
    expect((await finance.get('/api/staff/complaints')).status).toBe(403);
    expect((await finance.get(`/api/staff/complaints/${id}`)).status).toBe(403);

    const replied = await officer.post(`/api/staff/complaints/${id}/replies`, {
      message: 'We are checking the fee with finance.',
    });
    expect(replied.status, replied.text).toBe(200);
    expect(replied.body.status).toBe('in_progress');
    const assigned = await admin.post(`/api/staff/complaints/${id}/assign`, { assigneeId: officerId });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.assignedToId).toBe(officerId);
    // Only an active officer or admin can be given a complaint.
    const financeUser = await t.createUser({ role: 'finance' });
    const wrong = await admin.post(`/api/staff/complaints/${id}/assign`, { assigneeId: financeUser.user.id });
    expect(wrong.body.error.code).toBe('COMPLAINT_ASSIGNEE_INVALID');
    const resolved = await admin.post(`/api/staff/complaints/${id}/resolve`, {
      note: 'The fee was charged by mistake and has been refunded.',
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolutionNote: expect.stringContaining('refunded'),
    });

    // The borrower reads the reply and the resolution; staff names stay in the back office.
    const [mine] = (await b.agent.get('/api/complaints')).body.complaints;
    expect(mine).toMatchObject({
      status: 'resolved',
      resolutionNote: 'The fee was charged by mistake and has been refunded.',
      replies: [{ message: 'We are checking the fee with finance.', author: null }],
    });
    // Told by SMS, both times, through the outbox.
    await deliverOutboxAtNoon(t.deps);
    const texts = (await outbox(b.phone)).filter((m) => m.purpose === 'complaint_update').map((m) => m.text);
    expect(texts).toEqual([
      expect.stringContaining(`${filed.body.reference} has been resolved`),
      expect.stringContaining(`replied to your complaint ${filed.body.reference}`),
    ]);

    // Each staff write left its audit event, with the actor.
    const events = await t.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'reason', 'changes'])
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.action, e.actor_id])).toEqual([
      ['complaint.reply', officerId],
      ['complaint.assign', adminId],
      ['complaint.resolve', adminId],
    ]);
    expect(events[2]!.reason).toBe('The fee was charged by mistake and has been refunded.');

    // A resolved complaint takes nothing more.
    const late = await officer.post(`/api/staff/complaints/${id}/replies`, { message: 'One more thing' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('COMPLAINT_RESOLVED');
  });

  it('a refused write changes nothing: no reply without its audit event', async () => {
    const b = await borrower();
    const filed = await file(b.agent, { category: 'other', text: 'Audit pairing' });
    const blank = await officer.post(`/api/staff/complaints/${filed.body.id}/replies`, { message: '  ' });
    expect(blank.body.error.fields.message.code).toBe('COMPLAINT_REPLY_REQUIRED');
    const replies = await t.db
      .selectFrom('complaint_replies')
      .select('id')
      .where('complaint_id', '=', filed.body.id)
      .execute();
    expect(replies).toEqual([]);
  });

  it('resolves exactly once when many staff resolve at the same moment', async () => {
    const b = await borrower();
    const filed = await file(b.agent, { category: 'loan_terms', text: 'Race' });
    const id = filed.body.id as string;
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? officer : admin).post(`/api/staff/complaints/${id}/resolve`, { note: `Note ${i}` }),
      ),
    );
    const won = attempts.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of attempts.filter((r) => r.status !== 200)) {
      expect(lost.status, lost.text).toBe(409);
      expect(lost.body.error.code).toBe('COMPLAINT_RESOLVED');
    }
    const events = await t.db
      .selectFrom('audit_events')
      .select('reason')
      .where('target_id', '=', id)
      .where('action', '=', 'complaint.resolve')
      .execute();
    expect(events).toHaveLength(1);
    const row = await t.db
      .selectFrom('complaints')
      .select('resolution_note')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.resolution_note).toBe(events[0]!.reason);
  });
});

describe('the staff queue and the dashboard', () => {
  it('lists open complaints oldest first, searchable by reference, name and phone, with their age', async () => {
    const maria = await borrower('Maria Queue');
    const first = await file(maria.agent, { category: 'payments', text: 'First' });
    const second = await file(maria.agent, { category: 'payments', text: 'Second' });
    const byName = await officer.get('/api/staff/complaints?name=maria%20queue');
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.items.map((i: { reference: string }) => i.reference)).toEqual([
      first.body.reference,
      second.body.reference,
    ]);
    expect(byName.body.items[0]).toMatchObject({ fullName: 'Maria Queue', phone: maria.phone, ageDays: 0 });
    const byRef = await admin.get(`/api/staff/complaints?q=${second.body.reference.toLowerCase()}`);
    expect(byRef.body.items.map((i: { id: string }) => i.id)).toEqual([second.body.id]);
    const byPhone = await admin.get(`/api/staff/complaints?phone=${maria.phone}`);
    expect(byPhone.body.total).toBe(2);

    // Resolved ones leave the open queue; "all" still finds them.
    await officer.post(`/api/staff/complaints/${first.body.id}/resolve`, { note: 'Done' });
    const open = await officer.get('/api/staff/complaints?name=maria%20queue');
    expect(open.body.items.map((i: { id: string }) => i.id)).toEqual([second.body.id]);
    const all = await officer.get('/api/staff/complaints?name=maria%20queue&status=all');
    expect(all.body.total).toBe(2);

    // Three days later the open one is three days old.
    clock.days = 3;
    try {
      const later = await officer.get(`/api/staff/complaints?q=${second.body.reference}`);
      expect(later.body.items[0].ageDays).toBe(3);
    } finally {
      clock.days = 0;
    }
  });

  it('counts open complaints and the median time to resolve, by SQL', async () => {
    // From an empty table, so the figures are exact.
    await t.db.deleteFrom('complaint_replies').execute();
    await t.db.deleteFrom('complaints').execute();
    const summary = async () => {
      const response = await officer.get('/api/staff/dashboard');
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    expect(await summary()).toMatchObject({ openComplaints: 0, medianResolveSeconds: null });
    const b = await borrower();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4])
      ids.push((await file(b.agent, { category: 'other', text: `M${n}` })).body.id);
    expect((await summary()).openComplaints).toBe(4);
    // Resolved 1, 5 and 2 days after filing; one stays open.
    for (const [i, days] of [1, 5, 2].entries()) {
      clock.days = days;
      const resolved = await admin.post(`/api/staff/complaints/${ids[i]}/resolve`, {
        note: `After ${days} days`,
      });
      expect(resolved.status, resolved.text).toBe(200);
    }
    clock.days = 0;
    const after = await summary();
    expect(after.openComplaints).toBe(1);
    expect(Math.abs(after.medianResolveSeconds - 2 * 86_400)).toBeLessThanOrEqual(5);
  });
});
