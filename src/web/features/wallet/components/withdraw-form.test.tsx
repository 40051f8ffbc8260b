import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import type { ApiResponses } from '../../../test/api-responses';
import {
  errorBody,
  type MockResponse,
  makeUser,
  mockApi,
  renderApp,
  type StubResponse,
  signedInMe,
} from '../../../test/render';
import { approvedWallet, makeDisbursement, makePlanFigures, makePreview } from '../test/fixtures';

const borrower = makeUser({ phone: '09171234567' });
const codeSent: StubResponse<'POST /api/wallet/withdrawal-code'> = {
  body: { resendAfterSeconds: 60, expiresInSeconds: 300 },
};

type Withdrawn = ApiResponses['POST /api/wallet/withdrawals'];

function withdrawn(amountMinor: number): MockResponse<Withdrawn> {
  return {
    status: 201,
    body: { disbursement: makeDisbursement({ amountMinor }), replayed: false },
  };
}

type Handlers = Parameters<typeof mockApi>[0];

/** The server's preview for whatever amount is asked: the first withdrawal, its digest named after it. */
const previewFor = ({ body }: { body: unknown }) => {
  const { amount } = body as { amount: number };
  return { body: makePreview({ amountMinor: amount * 100, planDigest: `digest-${amount}` }) };
};

function openWallet(handlers: Handlers, wallet: WalletResponse | (() => WalletResponse) = approvedWallet()) {
  const fetchMock = mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/wallet': () => ({ body: typeof wallet === 'function' ? wallet() : wallet }),
    'POST /api/wallet/withdrawal-preview': previewFor,
    ...handlers,
  });
  renderApp('/wallet');
  return fetchMock;
}

function bodiesOf(fetchMock: ReturnType<typeof mockApi>, url: string) {
  return fetchMock.mock.calls.filter(([u]) => u === url).map(([, init]) => JSON.parse(String(init?.body)));
}

/** The wallet as approved until a ₱5,000 withdrawal is requested, then `after`. */
function openWalletAnswering5000Withdrawal(after: WalletResponse) {
  let requested = false;
  return openWallet(
    {
      'POST /api/wallet/withdrawal-code': codeSent,
      'POST /api/wallet/withdrawals': () => {
        requested = true;
        return withdrawn(500_000);
      },
    },
    () => (requested ? after : approvedWallet()),
  );
}

async function fill(amount: string, code?: string) {
  const user = userEvent.setup();
  if (amount) await user.type(await screen.findByLabelText('Amount (whole pesos)'), amount);
  if (code) await user.type(screen.getByLabelText('Verification code'), code);
  return user;
}

const withdrawButton = () => screen.getByRole('button', { name: 'Withdraw' });
const sendButton = () => screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement;

/** "Send code" waits for the preview of the amount typed; then it is pressed. */
async function sendCodeWhenReady(user: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(sendButton().disabled).toBe(false));
  await user.click(sendButton());
}

// Typing into several fields takes a few seconds when the whole suite runs at once.
describe('withdraw form', { timeout: 15_000 }, () => {
  it('has a 6-digit one-time-code field and the safety notice', async () => {
    openWallet({});
    const code = await screen.findByLabelText('Verification code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(
      screen.getByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
    expect(screen.getByText('Available: ₱100,000.00')).toBeTruthy();
    expect(screen.getByText('Paid to GCash •••• 9876')).toBeTruthy();
  });

  it('checks the amount and the code before calling the server', async () => {
    const fetchMock = openWallet({});
    const user = userEvent.setup();
    await screen.findByLabelText('Amount (whole pesos)');
    await user.click(withdrawButton());
    expect(screen.getByText('Enter a valid amount')).toBeTruthy();
    expect(screen.getByText('Enter the verification code')).toBeTruthy();
    expect(screen.getByLabelText('Amount (whole pesos)').getAttribute('aria-invalid')).toBe('true');

    // An amount the server would refuse is said as it is typed; there is no preview and no code to send.
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '12.50');
    expect(await screen.findByText('Enter a valid amount')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);

    await user.clear(screen.getByLabelText('Amount (whole pesos)'));
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '200000');
    expect(await screen.findByText('Amount exceeds balance')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
    expect(
      screen.getByText(
        'Enter an amount to see what it does to your payments. You will see this before any code is sent.',
      ),
    ).toBeTruthy();
    // Only reads: the session, the wallet, its signed terms and the lender's settings. No write was sent.
    expect(new Set(fetchMock.mock.calls.map(([url]) => url))).toEqual(
      new Set(['/api/me', '/api/wallet', '/api/wallet/terms', '/api/settings']),
    );
  });

  it('sends a code for the amount, counts down 60 s and locks the amount until Cancel', async () => {
    const fetchMock = openWallet({ 'POST /api/wallet/withdrawal-code': codeSent });
    const user = await fill('5,000');
    await sendCodeWhenReady(user);
    expect(await screen.findByText('A code was sent to your phone ending in 4567.')).toBeTruthy();
    const counting = screen.getByRole('button', { name: /^Resend in \d+s$/ }) as HTMLButtonElement;
    expect(counting.textContent).toBe('Resend in 60s');
    expect(counting.disabled).toBe(true);
    // The code is asked for the figures on the screen.
    expect(bodiesOf(fetchMock, '/api/wallet/withdrawal-code')).toEqual([
      { amount: 5000, planDigest: 'digest-5000' },
    ]);
    expect(screen.getByText('This code is for ₱5,000.00 only.')).toBeTruthy();
    expect(screen.getByText(/^Your code is for these figures only\./)).toBeTruthy();
    const amount = screen.getByLabelText('Amount (whole pesos)') as HTMLInputElement;
    expect(amount.readOnly).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(amount.readOnly).toBe(false);
    expect(amount.value).toBe('');
  });

  it('shows server errors: balance, paused, wrong code', async () => {
    let codeAnswer: StubResponse<'POST /api/wallet/withdrawal-code'> = {
      status: 400,
      body: errorBody('AMOUNT_EXCEEDS_BALANCE', 'Amount exceeds balance', {
        fields: { amount: { code: 'AMOUNT_EXCEEDS_BALANCE', message: 'Amount exceeds balance' } },
      }),
    };
    let withdrawAnswer: MockResponse<Withdrawn> = {
      status: 400,
      body: errorBody('WITHDRAWAL_CODE_INVALID', 'Invalid or expired code', {
        fields: { code: { code: 'WITHDRAWAL_CODE_INVALID', message: 'Invalid or expired code' } },
      }),
    };
    openWallet({
      'POST /api/wallet/withdrawal-code': () => codeAnswer,
      'POST /api/wallet/withdrawals': () => withdrawAnswer,
    });
    const user = await fill('5000');
    await sendCodeWhenReady(user);
    expect(await screen.findByText('Amount exceeds balance')).toBeTruthy();

    codeAnswer = {
      status: 409,
      body: errorBody('WITHDRAWALS_PAUSED', 'Withdrawals are paused: Please call us', {
        params: { message: 'Please call us' },
      }),
    };
    await sendCodeWhenReady(user);
    expect((await screen.findByRole('alert')).textContent).toBe('Withdrawals are paused: Please call us');

    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(withdrawButton());
    expect(await screen.findByText('Invalid or expired code')).toBeTruthy();
    expect(screen.getByLabelText('Verification code').getAttribute('aria-invalid')).toBe('true');

    withdrawAnswer = { status: 404, body: errorBody('LOAN_NOT_FOUND', 'Loan record not found') };
    await user.click(withdrawButton());
    expect(await screen.findByText('Loan record not found')).toBeTruthy();
  });

  it('withdraws, says so, and shows the withdrawal as in processing', async () => {
    const fetchMock = openWalletAnswering5000Withdrawal(
      approvedWallet({
        inProcessing: true,
        balance: { approvedMinor: 10_000_000, withdrawnMinor: 500_000, availableMinor: 9_500_000 },
        disbursements: [makeDisbursement({ amountMinor: 500_000 })],
      }),
    );
    const user = await fill('5000');
    await sendCodeWhenReady(user);
    await screen.findByRole('button', { name: /^Resend in/ });
    await user.type(screen.getByLabelText('Verification code'), '12a3456');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('123456');
    await user.click(withdrawButton());

    expect(await screen.findByText('Withdrawal of ₱5,000.00 requested')).toBeTruthy();
    // Said in the form too, not by a toast alone (issue #32).
    expect((await screen.findByTestId('withdrawal-requested')).textContent).toContain(
      'Withdrawal of ₱5,000.00 requested. We send it to GCash •••• 9876, usually within 10 minutes',
    );
    const [body] = bodiesOf(fetchMock, '/api/wallet/withdrawals');
    expect(body).toMatchObject({ amount: 5000, code: '123456' });
    expect(body.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('In Processing')).toBeTruthy();
    expect(screen.getByTestId('available-balance').textContent).toBe('₱95,000.00');
    expect((screen.getByLabelText('Amount (whole pesos)') as HTMLInputElement).value).toBe('');
  });

  it('stops saying "requested" once that withdrawal is no longer waiting (finance failed it)', async () => {
    openWalletAnswering5000Withdrawal(
      approvedWallet({
        disbursements: [
          makeDisbursement({ amountMinor: 500_000, status: 'failed', failureReason: 'Account closed' }),
        ],
      }),
    );
    const user = await fill('5000');
    await sendCodeWhenReady(user);
    await screen.findByRole('button', { name: /^Resend in/ });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(withdrawButton());
    expect(await screen.findByText('Withdrawal of ₱5,000.00 requested')).toBeTruthy();
    await screen.findByText(/Account closed/);
    expect(screen.queryByTestId('withdrawal-requested')).toBeNull();
  });

  it('reuses the idempotency key when retrying after a network error, and only then', async () => {
    let failNext = true;
    const fetchMock = openWallet({
      'POST /api/wallet/withdrawals': () => {
        if (failNext) {
          failNext = false;
          throw new TypeError('Failed to fetch');
        }
        return withdrawn(500_000);
      },
    });
    const user = await fill('5000', '654321');
    await user.click(withdrawButton());
    expect(
      await screen.findByText('Cannot reach the server. Check your connection and try again.'),
    ).toBeTruthy();

    await user.click(withdrawButton());
    expect(await screen.findByText('Withdrawal of ₱5,000.00 requested')).toBeTruthy();
    const [first, retry] = bodiesOf(fetchMock, '/api/wallet/withdrawals');
    expect(retry).toEqual(first);
    expect(retry.idempotencyKey).toBeTruthy();

    // A new withdrawal is a new attempt with its own key.
    await waitFor(() =>
      expect((screen.getByLabelText('Amount (whole pesos)') as HTMLInputElement).value).toBe(''),
    );
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '5000');
    await user.type(screen.getByLabelText('Verification code'), '654321');
    await user.click(withdrawButton());
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/wallet/withdrawals')).toHaveLength(3));
    const third = bodiesOf(fetchMock, '/api/wallet/withdrawals')[2];
    expect(third.idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it('uses a new key when the code changes after a failed try', async () => {
    const fetchMock = openWallet({
      'POST /api/wallet/withdrawals': {
        status: 400,
        body: errorBody('WITHDRAWAL_CODE_INVALID', 'Invalid or expired code', {
          fields: { code: { code: 'WITHDRAWAL_CODE_INVALID', message: 'Invalid or expired code' } },
        }),
      },
    });
    const user = await fill('5000', '111111');
    await user.click(withdrawButton());
    await screen.findByText('Invalid or expired code');
    await user.clear(screen.getByLabelText('Verification code'));
    await user.type(screen.getByLabelText('Verification code'), '222222');
    await user.click(withdrawButton());
    await waitFor(() => expect(bodiesOf(fetchMock, '/api/wallet/withdrawals')).toHaveLength(2));
    const [first, second] = bodiesOf(fetchMock, '/api/wallet/withdrawals');
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it('waits as long as the server says when a code was requested too soon', async () => {
    openWallet({
      'POST /api/wallet/withdrawal-code': {
        status: 429,
        body: errorBody('CODE_RESEND_TOO_SOON', 'Please wait 42 seconds before requesting another code.', {
          params: { n: 42 },
        }),
      },
    });
    await screen.findByLabelText('Amount (whole pesos)');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '5000');
    await sendCodeWhenReady(user);
    expect(await screen.findByText('Please wait 42 seconds before requesting another code.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend in 42s' })).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(42_000));
    expect((screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the hourly code ceiling refusal in the form', async () => {
    const message = 'Too many verification codes have been requested. Please try again in 12 minutes.';
    openWallet({
      'POST /api/wallet/withdrawal-code': {
        status: 429,
        body: errorBody('CODE_LIMIT_REACHED', message, { params: { n: 12 } }),
      },
    });
    await screen.findByLabelText('Amount (whole pesos)');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '5000');
    await sendCodeWhenReady(user);
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('shows what the first withdrawal does to the payments before a code can be sent', async () => {
    openWallet({});
    const user = userEvent.setup();
    const amount = await screen.findByLabelText('Amount (whole pesos)');
    expect(sendButton().disabled).toBe(true);
    await user.type(amount, '5000');
    const preview = await screen.findByRole('region', { name: 'What this withdrawal does to your payments' });
    await waitFor(() => expect(within(preview).getByTestId('preview-monthly').textContent).toBe('₱892.63'));
    expect(within(preview).getByText('Number of payments').nextElementSibling?.textContent).toBe('6');
    expect(within(preview).getByTestId('preview-from').textContent).toBe('Apr 3, 2025');
    expect(within(preview).getByText('First payment due (estimated)')).toBeTruthy();
    expect(within(preview).getByTestId('preview-total').textContent).toBe('₱5,355.78');
    expect(within(preview).getByText('Total interest').nextElementSibling?.textContent).toBe('₱355.78');
    expect(within(preview).getByText(/^Estimated for a payout today, Mar 3, 2025\./)).toBeTruthy();
    expect(sendButton().disabled).toBe(false);
    expect(
      screen.getByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
  });

  it('shows the plan now beside the plan after a later withdrawal', async () => {
    openWallet({
      'POST /api/wallet/withdrawal-preview': {
        body: makePreview({
          amountMinor: 2_000_000,
          inProcessingMinor: 300_000,
          before: makePlanFigures({
            monthlyPaymentMinor: 892_630,
            fromInstalment: 1,
            fromDueDate: '2025-04-03',
            totalRepayableMinor: 5_355_780,
          }),
          after: makePlanFigures({
            monthlyPaymentMinor: 1_245_010,
            fromInstalment: 2,
            fromDueDate: '2025-05-03',
            totalRepayableMinor: 7_380_150,
            totalCostMinor: 580_150,
            effectiveAnnualRate: '0.281204',
          }),
          // A 1 % fee on this payout: what reaches the account is shown first.
          feeMinor: 20_000,
          netMinor: 1_980_000,
        }),
      },
    });
    await fill('20000');
    const preview = await screen.findByRole('region', { name: 'What this withdrawal does to your payments' });
    const table = await within(preview).findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => Array.from(row.children).map((cell) => cell.textContent));
    // Phone layout (jsdom matches no media query): each figure's name above its two values.
    expect(rows).toEqual([
      ['Now', 'After this withdrawal'],
      ['Monthly payment'],
      ['₱8,926.30', '₱12,450.10'],
      ['From due date (estimated)'],
      ['Apr 3, 2025', 'May 3, 2025'],
      ['Total to repay'],
      ['₱53,557.80', '₱73,801.50'],
      ['Total cost (interest and fees)'],
      ['₱355.78', '₱5,801.50'],
      ['Effective annual rate'],
      ['26.82%', '28.12%'],
    ]);
    expect(within(preview).getByTestId('preview-fee').textContent).toBe('₱200.00');
    expect(within(preview).getByTestId('preview-net').textContent).toBe('₱19,800.00');
    expect(
      within(preview).getByText('“Now” includes ₱3,000.00 still being processed, counted as paid out today.'),
    ).toBeTruthy();
    expect(
      within(preview).getByText(/^Estimated for a payout today, Mar 3, 2025\. If the money/),
    ).toBeTruthy();
  });

  it('says when the figures cannot be worked out, and offers to try again after a network error', async () => {
    let answer: 'paused' | 'offline' | 'ok' = 'paused';
    openWallet({
      'POST /api/wallet/withdrawal-preview': (request) => {
        if (answer === 'offline') throw new TypeError('Failed to fetch');
        if (answer === 'paused') {
          return {
            status: 409,
            body: errorBody('WITHDRAWALS_PAUSED', 'Withdrawals are paused: Please call us', {
              params: { message: 'Please call us' },
            }),
          };
        }
        return previewFor(request);
      },
    });
    const user = await fill('5000');
    const preview = await screen.findByRole('region', { name: 'What this withdrawal does to your payments' });
    expect(await within(preview).findByText('Withdrawals are paused: Please call us')).toBeTruthy();
    expect(within(preview).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(sendButton().disabled).toBe(true);

    answer = 'offline';
    await user.type(screen.getByLabelText('Amount (whole pesos)'), '0');
    expect(
      await within(preview).findByText('Cannot reach the server. Check your connection and try again.'),
    ).toBeTruthy();
    answer = 'ok';
    await user.click(within(preview).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(preview).getByTestId('preview-monthly')).toBeTruthy());
    expect(sendButton().disabled).toBe(false);
  });

  it('asks for the figures again when they changed before the code was sent', async () => {
    let digest = 'digest-old';
    const fetchMock = openWallet({
      'POST /api/wallet/withdrawal-preview': { body: makePreview() },
      'POST /api/wallet/withdrawal-code': ({ body }) =>
        (body as { planDigest: string }).planDigest === digest
          ? codeSent
          : {
              status: 409,
              body: errorBody(
                'WITHDRAWAL_PREVIEW_OUTDATED',
                'Your payment plan has changed. Please review the new figures, then send the code again.',
              ),
            },
    });
    // The server's figures changed after the preview was shown.
    const user = await fill('5000');
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    digest = 'digest-new';
    const reread = () => bodiesOf(fetchMock, '/api/wallet/withdrawal-preview').length;
    expect(reread()).toBe(1);
    await user.click(sendButton());
    expect(
      await screen.findByText(
        'Your payment plan has changed. Please review the new figures, then send the code again.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(reread()).toBe(2));
  });

  it('unlocks the amount and shows the new figures when the plan changed before withdrawing', async () => {
    let previews = 0;
    const fetchMock = openWallet({
      'POST /api/wallet/withdrawal-preview': () => {
        previews += 1;
        return {
          body: makePreview({
            planDigest: `digest-${previews}`,
            after: makePlanFigures({ monthlyPaymentMinor: previews === 1 ? 89_263 : 90_000 }),
          }),
        };
      },
      'POST /api/wallet/withdrawal-code': codeSent,
      'POST /api/wallet/withdrawals': {
        status: 409,
        body: errorBody(
          'WITHDRAWAL_PLAN_CHANGED',
          'Your payment plan changed. Please review it and request a new code.',
        ),
      },
    });
    const user = await fill('5000');
    await sendCodeWhenReady(user);
    await screen.findByRole('button', { name: /^Resend in/ });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.click(withdrawButton());
    expect(
      await screen.findByText('Your payment plan changed. Please review it and request a new code.'),
    ).toBeTruthy();
    const amount = screen.getByLabelText('Amount (whole pesos)') as HTMLInputElement;
    await waitFor(() => expect(amount.readOnly).toBe(false));
    expect(amount.value).toBe('5000');
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(screen.getByTestId('preview-monthly').textContent).toBe('₱900.00'));
    expect(screen.queryByText(/^Your code is for these figures only\./)).toBeNull();
    expect(bodiesOf(fetchMock, '/api/wallet/withdrawal-code')).toEqual([
      { amount: 5000, planDigest: 'digest-1' },
    ]);
  });

  it('has nothing to withdraw when the balance is used up', async () => {
    openWallet(
      {},
      approvedWallet({
        balance: { approvedMinor: 10_000_000, withdrawnMinor: 10_000_000, availableMinor: 0 },
      }),
    );
    // Issue #32: no withdraw form once nothing is left to draw (it used to show, disabled).
    expect(await screen.findByTestId('withdrawn-total')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send code' })).toBeNull();
  });
});
