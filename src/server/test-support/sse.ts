import { request as httpRequest, type IncomingMessage } from 'node:http';
import { expect } from 'vitest';
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
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: pending$/m.test(block) && data) counts.push(JSON.parse(data).count);
          end = buffer.indexOf('\n\n');
        }
      });
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
