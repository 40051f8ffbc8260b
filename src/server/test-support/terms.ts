import type { Agent, ApiResponse, TestApp } from './test-app';

/**
 * The borrower accepts the change to their terms that waits for them, as the wallet page does: asks for a
 * code to their phone, reads it from the development outbox and sends it back (docs/decisions/018).
 */
export async function acceptProposedTerms(t: TestApp, borrower: Agent, phone: string): Promise<ApiResponse> {
  const { proposed } = (await borrower.get('/api/wallet/terms')).body;
  if (!proposed) throw new Error('no change waits for this borrower');
  const sent = await borrower.post(`/api/wallet/terms-changes/${proposed.id}/code`);
  if (sent.status !== 200) return sent;
  return borrower.post(`/api/wallet/terms-changes/${proposed.id}/accept`, {
    code: await t.latestCode(phone),
  });
}
