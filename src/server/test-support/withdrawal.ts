import type { Agent, ApiResponse } from './test-app';

/**
 * Asks for a withdrawal code as the web app does: the preview first (re-disclosure), then the code for the
 * figures it showed. Answers the code request (or the preview's refusal).
 */
export async function sendWithdrawalCode(agent: Agent, amount: number | string): Promise<ApiResponse> {
  const preview = await agent.post('/api/wallet/withdrawal-preview', { amount });
  if (preview.status !== 200) return preview;
  return agent.post('/api/wallet/withdrawal-code', { amount, planDigest: preview.body.planDigest });
}
