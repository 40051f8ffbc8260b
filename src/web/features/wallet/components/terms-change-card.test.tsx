import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MyTermsResponse, TermsChangeDto } from '../../../../domain/schemas/terms';
import { makeUser, mockApi, renderApp, signedInMe, stub } from '../../../test/render';
import { pendingWallet } from '../test/fixtures';

const borrower = makeUser();
const changeId = '30000000-0000-4000-8000-000000000001';

const figures = (amountMinor: number, monthlyPaymentMinor: number) => ({
  amountMinor,
  termMonths: 12,
  monthlyPaymentMinor,
  totalRepayableMinor: monthlyPaymentMinor * 12,
  totalInterestMinor: monthlyPaymentMinor * 12 - amountMinor,
  fees: { flatMinor: 0, percentBp: 0, totalMinor: 0 },
  monthlyRate: '0.02',
  apr: '0.24',
  effectiveAnnualRate: '0.268242',
});

const proposed: TermsChangeDto = {
  id: changeId,
  status: 'proposed',
  reason: 'Your income supports more',
  proposedAt: '2025-03-02T02:00:00.000Z',
  decidedAt: null,
  previous: figures(15_000_000, 1_418_394),
  disclosure: figures(16_000_000, 1_512_954),
  disclosureSha256: 'b'.repeat(64),
};

function terms(overrides: Partial<MyTermsResponse> = {}): MyTermsResponse {
  return {
    signed: {
      applicationId: '10000000-0000-4000-8000-000000000001',
      loanNumber: 'HL-25-000042',
      signedAt: '2025-03-01T02:00:00.000Z',
      disclosure: figures(15_000_000, 1_418_394),
      disclosureSha256: 'a'.repeat(64),
    },
    proposed,
    accepted: [],
    ...overrides,
  };
}

describe('new terms proposed to the borrower', () => {
  it('shows the terms now beside the proposed ones and accepts them with the code', async () => {
    let answered = false;
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(borrower),
      'GET /api/wallet': { body: pendingWallet() },
      'GET /api/wallet/terms': () => ({
        body: answered ? terms({ proposed: null, accepted: [{ ...proposed, status: 'accepted' }] }) : terms(),
      }),
      ...stub(
        'POST /api/wallet/terms-changes/:id/code',
        { id: changeId },
        {
          body: { resendAfterSeconds: 60, expiresInSeconds: 300 },
        },
      ),
      ...stub('POST /api/wallet/terms-changes/:id/accept', { id: changeId }, () => {
        answered = true;
        return { body: { ok: true } };
      }),
    });
    renderApp('/wallet');
    const card = await screen.findByRole('region', { name: 'New loan terms to review' });
    expect(within(card).getByText('Reason given: Your income supports more')).toBeTruthy();
    const amountRow = within(card).getByRole('row', { name: /Amount/ });
    expect(amountRow.textContent).toContain('₱150,000.00');
    expect(amountRow.textContent).toContain('₱160,000.00');
    expect(within(card).getByText(/We will never ask you for this code/)).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Accept new terms' }));
    expect(within(card).getByRole('alert').textContent).toContain('Enter the verification code');
    await user.click(within(card).getByRole('button', { name: 'Send code' }));
    await user.type(within(card).getByLabelText('Verification code'), '123456');
    await user.click(within(card).getByRole('button', { name: 'Accept new terms' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'New loan terms to review' })).toBeNull(),
    );
    const accept = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/accept'));
    expect(JSON.parse(String(accept?.[1]?.body))).toEqual({ code: '123456' });
    // The accepted change joins the statement the borrower signed, each one can be opened.
    const signed = await screen.findByRole('region', { name: 'Your signed terms' });
    expect(within(signed).getByText('Change you accepted')).toBeTruthy();
    await user.click(within(signed).getByRole('button', { name: 'View: Statement you signed' }));
    expect(await screen.findByText(`SHA-256 of these exact terms: ${'a'.repeat(64)}`)).toBeTruthy();
  });

  it('declines without a code', async () => {
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(borrower),
      'GET /api/wallet': { body: pendingWallet() },
      'GET /api/wallet/terms': { body: terms() },
      ...stub('POST /api/wallet/terms-changes/:id/decline', { id: changeId }, { body: { ok: true } }),
    });
    renderApp('/wallet');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith(`${changeId}/decline`))).toBe(true),
    );
  });
});
