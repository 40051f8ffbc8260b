import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountResponse } from '../../../../domain/schemas/wallet';
import { emptyAccount, errorBody, makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';

const borrower = makeUser({ phone: '09171234567', avatar: 1 });

const fullAccount: AccountResponse = {
  supportEmail: 'help@lender.example',
  creditScore: 500,
  profile: {
    fullName: 'Maria Santos',
    idNumber: 'ID-778812',
    phone: '09171234567',
    email: null,
    address: '12 Rizal St, Quezon City',
    companyName: 'Santos Bakery',
    position: 'Owner',
    incomeMinor: 4_500_000,
    monthlyExpenseMinor: 2_000_000,
    contactName: 'Jose Santos',
    contactPhone: '09170000002',
    contactRelation: 'sibling',
    bankName: 'GCash',
    accountNumberLast4: '9876',
  },
  loan: {
    loanNumber: 'HL-25-000042',
    status: 'approved',
    amountMinor: 10_000_000,
    approvedAmountMinor: 10_000_000,
    termMonths: 12,
    monthlyPaymentMinor: 945_596,
    submittedAt: '2025-03-01T02:00:00.000Z',
    decidedAt: null,
  },
  loans: [
    {
      loanNumber: 'HL-25-000042',
      status: 'approved',
      amountMinor: 10_000_000,
      approvedAmountMinor: 10_000_000,
      termMonths: 12,
      submittedAt: '2025-03-01T02:00:00.000Z',
      closedAt: null,
      productNames: { en: 'Salary loan', fil: 'Pautang sa sahod', zh: '工资贷款', km: 'ប្រាក់កម្ចីប្រាក់ខែ' },
    },
    {
      loanNumber: 'HL-24-000007',
      status: 'closed',
      amountMinor: 2_000_000,
      approvedAmountMinor: 2_000_000,
      termMonths: 6,
      submittedAt: '2024-06-01T02:00:00.000Z',
      closedAt: '2024-12-01T02:00:00.000Z',
      productNames: null,
    },
  ],
};

/** Motion is reduced, so the score shows its final value at once (the count-up has its own test). */
const originalMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = originalMatchMedia;
});

function reduceMotion(reduce: boolean) {
  const original = originalMatchMedia;
  window.matchMedia = ((query: string) => ({
    ...original(query),
    matches: reduce && query.includes('prefers-reduced-motion'),
  })) as typeof window.matchMedia;
}

function openAccount(account: AccountResponse, handlers: Parameters<typeof mockApi>[0] = {}) {
  const fetchMock = mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/account': { body: account },
    'GET /api/account/documents': { body: { items: [] } },
    'GET /api/account/consents': { body: { items: [] } },
    'GET /api/account/sms-preferences': { body: { optionalSms: true } },
    ...handlers,
  });
  renderApp('/account');
  return fetchMock;
}

/** The value shown beside a label in one of the accordions. */
function shownValue(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

// Typing into several fields takes a few seconds when the whole suite runs at once.
describe('account page', { timeout: 15_000 }, () => {
  it.each([
    [null, '-', 'Pending approval'],
    [0, '0', 'Pending approval'],
    [1, '1', 'Bad'],
    [400, '400', 'Bad'],
    [401, '401', 'Good'],
    [500, '500', 'Good'],
    [501, '501', 'Very Good'],
    [900, '900', 'Very Good'],
    [950, '950', 'Excellent'],
  ])('score %s shows %s and the rating "%s"', async (score, shown, rating) => {
    reduceMotion(true);
    openAccount({ ...fullAccount, creditScore: score });
    expect((await screen.findByTestId('credit-rating')).textContent).toBe(rating);
    expect(screen.getByTestId('credit-score').textContent).toBe(shown);
    expect(screen.getByRole('img', { name: `Credit score ${score ?? '-'} of 900: ${rating}` })).toBeTruthy();
  });

  it('lists every loan, newest first, with its product and how it ended (issue #31: repeat loans)', async () => {
    reduceMotion(true);
    openAccount(fullAccount);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'My loans' }));
    const items = (await screen.findAllByRole('listitem')).filter((item) =>
      item.textContent?.startsWith('HL-'),
    );
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('HL-25-000042 · Salary loan'),
      expect.stringContaining('HL-24-000007'),
    ]);
    expect(items[0]!.textContent).toContain('₱100,000.00 over 12 months');
    expect(items[1]!.textContent).toContain('repaid in full on Dec 1, 2024');
    expect(items[1]!.textContent).not.toContain('·  ');
  });

  it('counts the score up with an animation', async () => {
    reduceMotion(false);
    openAccount({ ...fullAccount, creditScore: 640 });
    const score = await screen.findByTestId('credit-score');
    expect(Number(score.textContent)).toBeLessThan(640);
    await waitFor(() => expect(Number(score.textContent)).toBeGreaterThan(0));
    await waitFor(() => expect(score.textContent).toBe('640'), { timeout: 3000 });
    expect(screen.getByTestId('credit-rating').textContent).toBe('Very Good');
  });

  it('shows the profile, other information and loan summary, with "-" for missing values', async () => {
    reduceMotion(true);
    openAccount(fullAccount);
    await screen.findByText('Profile Information');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Other Information' }));
    await user.click(screen.getByRole('button', { name: 'Loan Summary' }));

    expect(shownValue('Full name')).toBe('Maria Santos');
    expect(shownValue('Email')).toBe('-');
    expect(shownValue('Monthly income')).toBe('₱45,000.00');
    expect(shownValue('Relation')).toBe('Sibling');
    expect(shownValue('Account number')).toBe('•••• 9876');
    expect(shownValue('Status')).toBe('Approved');
    expect(shownValue('Term')).toBe('12 months');
    expect(shownValue('Decided on')).toBe('-');
    // 02:00 UTC is 10:00 in Manila.
    expect(shownValue('Applied on')).toMatch(/Mar 1, 2025,? 10:00\sAM/);
  });

  it('shows "-" everywhere for a borrower who has not applied', async () => {
    reduceMotion(true);
    openAccount(emptyAccount());
    await screen.findByText('Profile Information');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Loan Summary' }));
    for (const label of ['Full name', 'ID number', 'Email', 'Address', 'Loan number', 'Status', 'Term']) {
      expect({ label, value: shownValue(label) }).toEqual({ label, value: '-' });
    }
    // The account's own phone is known even without an application.
    expect(shownValue('Phone number')).toBe('09171234567');
    expect(screen.getByTestId('credit-rating').textContent).toBe('Pending approval');
  });

  it('has support and help: the e-mail, the safety notice and a password form', async () => {
    reduceMotion(true);
    const fetchMock = openAccount(fullAccount, {
      'POST /api/auth/password': ({ body }) =>
        (body as { currentPassword: string }).currentPassword === 'old-password'
          ? signedInMe(borrower)
          : {
              status: 400,
              body: errorBody('CURRENT_PASSWORD_WRONG', 'Current password is incorrect', {
                fields: {
                  currentPassword: {
                    code: 'CURRENT_PASSWORD_WRONG',
                    message: 'Current password is incorrect',
                  },
                },
              }),
            },
    });
    await screen.findByText('Support & Help');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Support & Help' }));
    const mail = await screen.findByRole('link', { name: 'help@lender.example' });
    expect(mail.getAttribute('href')).toBe('mailto:help@lender.example');
    expect(
      screen.getByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
    expect(screen.getByText('How to change your password')).toBeTruthy();

    const form = screen.getByRole('form', { name: 'Change password' });
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByText('Please fill in all fields')).toBeTruthy();

    await user.type(within(form).getByLabelText('Current password'), 'wrong-password');
    await user.type(within(form).getByLabelText('New password'), 'new-password-1');
    await user.type(within(form).getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Current password is incorrect')).toBeTruthy();

    await user.clear(within(form).getByLabelText('Current password'));
    await user.type(within(form).getByLabelText('Current password'), 'old-password');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeTruthy();
    expect((within(form).getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    const calls = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/password');
    expect(JSON.parse(String(calls.at(-1)?.[1]?.body))).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
      confirmPassword: 'new-password-1',
    });
  });

  it('saves the chosen avatar through the API and keeps it in the session', async () => {
    reduceMotion(true);
    const fetchMock = openAccount(fullAccount, {
      'POST /api/account/avatar': ({ body }) => ({
        body: {
          user: { ...borrower, avatar: (body as { avatar: number }).avatar },
          csrfToken: 'csrf-test-token',
        },
      }),
    });
    const group = await screen.findByRole('group', { name: 'Choose your avatar' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(5);
    expect((within(group).getByRole('radio', { name: 'Cat' }) as HTMLInputElement).checked).toBe(true);

    const user = userEvent.setup();
    await user.click(within(group).getByRole('radio', { name: 'Fox' }));
    expect(await screen.findByText('Your avatar has been updated.')).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/account/avatar');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ avatar: 3 });
    expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test-token');
    expect((within(group).getByRole('radio', { name: 'Fox' }) as HTMLInputElement).checked).toBe(true);
    expect((within(group).getByRole('radio', { name: 'Cat' }) as HTMLInputElement).checked).toBe(false);
  });

  it('goes back to the saved avatar when saving fails', async () => {
    reduceMotion(true);
    openAccount(fullAccount, {
      'POST /api/account/avatar': {
        status: 400,
        body: errorBody('AVATAR_INVALID', 'Please choose one of the five pictures.'),
      },
    });
    const group = await screen.findByRole('group', { name: 'Choose your avatar' });
    await userEvent.click(within(group).getByRole('radio', { name: 'Owl' }));
    expect(await screen.findByText('Please choose one of the five pictures.')).toBeTruthy();
    expect((within(group).getByRole('radio', { name: 'Cat' }) as HTMLInputElement).checked).toBe(true);
  });

  it('turns the optional text messages off, saying which messages always come', async () => {
    reduceMotion(true);
    const fetchMock = openAccount(fullAccount, {
      'POST /api/account/sms-preferences': ({ body }) => ({ body: body as { optionalSms: boolean } }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Text messages' }));
    const toggle = await screen.findByRole('switch', {
      name: 'Also text me when an application is declined and when you reply to my complaint',
    });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/We always text you about your money/)).toBeTruthy();
    await user.click(toggle);
    expect(await screen.findByText('Your text message setting has been saved.')).toBeTruthy();
    const call = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/account/sms-preferences' && init?.method === 'POST',
    );
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ optionalSms: false });
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });
});
