import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyAccount, makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';

const pending = makeUser({ phone: '09171234567', privacyConsentRequired: true });
const agreeLabel =
  'I have read the privacy notice and agree to the processing of my personal data as it describes.';

describe('re-consent after a new privacy notice', { timeout: 30_000 }, () => {
  it('shows the new notice before any borrower page and continues once the borrower agrees', async () => {
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(pending),
      'POST /api/account/consent': { body: signedInMe({ ...pending, privacyConsentRequired: false }).body },
      'GET /api/account': { body: emptyAccount() },
      'GET /api/account/documents': { body: { items: [] } },
      'GET /api/account/consents': { body: { items: [] } },
      'GET /api/account/sms-preferences': { body: { optionalSms: true } },
    });
    renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Our privacy notice has changed' })).toBeTruthy();
    expect(await screen.findByText('Version 2026-11-23')).toBeTruthy();
    // Nothing of the borrower's is asked for until they agree.
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/account')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Agree and continue' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Please read the privacy notice and tick the box to agree before continuing.',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: agreeLabel }));
    await userEvent.click(screen.getByRole('button', { name: 'Agree and continue' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Our privacy notice has changed' })).toBeNull(),
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/account/consent');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ privacyNoticeVersion: '2026-11-23' });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/account')).toBe(true));
  });
});
