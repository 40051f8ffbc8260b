import { request as httpRequest, type IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import { collectPendingCounts } from './pending-counts';
import type { Agent } from './test-app';

/**
 * Opens the staff event stream at `baseUrl` (a listening app) with the agent's cookies and collects the
 * `pending` counts as they arrive.
 */
export function openPendingStream(
  baseUrl: string,
  agent: Agent,
): Promise<{ counts: number[]; response: IncomingMessage; close: () => void }> {
  return new Promise((resolve, reject) => {
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const req = httpRequest(`${baseUrl}/api/staff/events`, { headers: { cookie } }, (response) => {
      const counts: number[] = [];
      response.setEncoding('utf8');
      response.on('data', collectPendingCounts(counts));
      resolve({ counts, response, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits (up to `timeoutMs`) until `check` holds, then asserts it. */
export async function until(check: () => boolean, timeoutMs = 5_000) {
  for (let waited = 0; waited < timeoutMs && !check(); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(check()).toBe(true);
}
