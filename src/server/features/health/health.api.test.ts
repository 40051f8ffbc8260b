import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDbKind } from '../../test-support/test-app';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers ok and names the backend the suite runs on', async () => {
    const response = await t.api.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', db: testDbKind() });
    expect(t.kind).toBe(testDbKind());
  });

  it('needs no session and sets no cookie', async () => {
    const response = await t.agent().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});
