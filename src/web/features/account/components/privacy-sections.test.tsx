import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  emptyAccount,
  errorBody,
  makeUser,
  mockApi,
  renderApp,
  signedInMe,
  signedOutMe,
} from '../../../test/render';

const borrower = makeUser({ phone: '09171234567' });
const account = emptyAccount();
const documents = {
  items: [
    { id: 'd1', kind: 'id_front', loanNumber: 'HL-26-000007', createdAt: '2026-01-05T02:00:00.000Z' },
    { id: 'd4', kind: 'signature', loanNumber: 'HL-26-000007', createdAt: '2026-01-05T02:00:00.000Z' },
  ],
} as const;
const consents = {
  items: [
    { version: '2026-11-23', context: 'reconsent', consentedAt: '2026-11-23T04:00:00.000Z', current: true },
    { version: '2025-01-01', context: 'signup', consentedAt: '2025-01-05T04:00:00.000Z', current: false },
  ],
} as const;

function openAccount(handlers: Parameters<typeof mockApi>[0] = {}) {
  const fetchMock = mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/account': { body: account },
    'GET /api/account/documents': { body: { items: [...documents.items] } },
    'GET /api/account/consents': { body: { items: [...consents.items] } },
    'GET /api/account/sms-preferences': { body: { optionalSms: true } },
    ...handlers,
  });
  return { fetchMock, ...renderApp('/account') };
}

async function openSection(name: string) {
  const control = await screen.findByRole('button', { name });
  await userEvent.click(control);
  return control;
}

describe("account page: the borrower's own data", { timeout: 30_000 }, () => {
  it("shows the borrower's own documents as thumbnails that enlarge", async () => {
    openAccount();
    await openSection('My documents');
    expect(await screen.findByText('Application HL-26-000007')).toBeTruthy();
    const front = screen.getByRole('img', { name: 'ID (front)' });
    expect(front.getAttribute('src')).toBe('/api/files/d1');
    expect(screen.getByRole('img', { name: 'Signature' }).getAttribute('src')).toBe('/api/files/d4');
    await userEvent.click(await screen.findByRole('button', { name: /ID \(front\)/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'ID (front)' }).getAttribute('src')).toBe('/api/files/d1');
  });

  it('offers the data download as a ZIP link', async () => {
    openAccount();
    await openSection('Download my data');
    const link = await screen.findByRole('link', { name: 'Download my data (ZIP)' });
    expect(link.getAttribute('href')).toBe('/api/account/export.zip');
    expect(link.getAttribute('download')).toBe('my-data.zip');
  });

  it('lists the consents, newest first, and opens the notice in force', async () => {
    openAccount();
    await openSection('Privacy and consent');
    expect(await screen.findByText('Version 2026-11-23')).toBeTruthy();
    expect(screen.getByText('Current')).toBeTruthy();
    expect(screen.getByText(/^Agreed to a new version · /)).toBeTruthy();
    expect(screen.getByText(/^Agreed when signing up · /)).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Read the privacy notice' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('en rights text. DPO: dpo@example.com')).toBeTruthy();
  });

  it('closes the account with the password, then shows the login page', async () => {
    let closed = false;
    const { fetchMock, router } = openAccount({
      'GET /api/me': () => ({ body: closed ? signedOutMe.body : signedInMe(borrower).body }),
      'POST /api/account/close': () => {
        closed = true;
        return { body: { ok: true, anonymiseOn: '2031-11-23' } };
      },
    });
    await openSection('Account closure');
    expect(await screen.findByText(/we keep your records for 5 years/)).toBeTruthy();
    // The text is in the document while the section is still opening; the button is reachable once it is open.
    await userEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'my-password-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/account/close');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ password: 'my-password-1' });
    expect(
      await screen.findByText(/Your account is closed\. Your personal data will be anonymised on/),
    ).toBeTruthy();
  });

  it('explains a refusal while a loan runs, with the date it can be done', async () => {
    const message =
      'Your account cannot be closed while loan HL-26-000007 is running. You can close it once the loan is paid off; the last payment is due on 2027-06-05.';
    openAccount({
      'POST /api/account/close': {
        status: 409,
        body: errorBody('ACCOUNT_CLOSURE_LOAN_RUNNING', message, {
          params: { loanNumber: 'HL-26-000007', date: '2027-06-05' },
        }),
      },
    });
    await openSection('Account closure');
    await userEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'my-password-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Your account cannot be closed while loan HL-26-000007 is running. You can close it once the loan is paid off; the last payment is due on Jun 5, 2027.',
    );
  });
});
