import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MyApplicationResponse } from '../../../../domain/schemas/application';
import type { OfferedProductsResponse } from '../../../../domain/schemas/offered-products';
import type { PublicSettings } from '../../../../domain/schemas/settings';
import { createFormatters } from '../../../lib/format';
import {
  defaultOfferedProduct,
  defaultSettings,
  errorBody,
  type MockResponse,
  makeUser,
  mockApi,
  renderApp,
  signedInMe,
} from '../../../test/render';
import { loadTextDraft } from '../draft/draft-store';
import { estimateDisclosure } from '../model/step1';
import { pendingApplication } from '../test/fixtures';
import { forgetStep1Rules } from './step1-page';

const { money } = createFormatters({ language: 'en', timeZone: 'Asia/Manila', na: 'N/A' });

const borrower = makeUser();
const canApply: MockResponse<MyApplicationResponse> = { body: { application: null, canApply: true } };

function figure(name: string): string {
  const row = document.querySelector(`[data-figure="${name}"] dd`);
  if (!row) throw new Error(`no figure ${name}`);
  return row.textContent ?? '';
}

async function openStep1(
  mine: MockResponse<MyApplicationResponse> | (() => MockResponse<MyApplicationResponse>) = canApply,
  settings: MockResponse<PublicSettings> = { body: defaultSettings() },
  products: MockResponse<OfferedProductsResponse> = { body: { items: [defaultOfferedProduct()] } },
) {
  const fetchMock = mockApi({
    'GET /api/settings': settings,
    'GET /api/products': products,
    'GET /api/me': signedInMe(borrower),
    'GET /api/applications/mine': typeof mine === 'function' ? mine : mine,
  });
  const view = renderApp('/loan/application');
  const amount = (await screen.findByLabelText('Loan amount')) as HTMLInputElement;
  return { ...view, fetchMock, amount, user: userEvent.setup({ delay: null }) };
}

// Picture checks and the lazy step 2 are asynchronous; a busy machine needs more than 1 s.
configure({ asyncUtilTimeout: 5000 });

describe('step 1 — /loan/application', { timeout: 30_000 }, () => {
  beforeEach(() => forgetStep1Rules());

  it('says "Step 1 of 2", pre-fills the account phone and shows the banner, how it works and the safety notice', async () => {
    await openStep1();
    expect(screen.getByText('Step 1 of 2')).toBeTruthy();
    expect((screen.getByLabelText('Phone number') as HTMLInputElement).value).toBe('09171234567');
    expect(screen.getByRole('region', { name: 'About Hiram loans' })).toBeTruthy();
    // Drawn just after the first screen.
    expect(await screen.findByRole('heading', { name: 'How it works' })).toBeTruthy();
    expect(
      await screen.findByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
    // Period selector: 6, 12, 18, 24 months, 6 by default.
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.value)).toEqual(['6', '12', '18', '24']);
    expect(screen.getByRole('radio', { name: '6 months' })).toHaveProperty('checked', true);
  });

  it('rounds the amount to the nearest ₱10,000 and clamps it on blur', async () => {
    const { amount, user } = await openStep1();
    const blurWith = async (text: string) => {
      await user.clear(amount);
      await user.type(amount, text);
      await user.tab();
      return amount.value;
    };
    expect(await blurWith('155000')).toBe('160,000');
    // Never silently (issue #32): the change is said under the field.
    expect(screen.getByTestId('amount-adjusted').textContent).toBe(
      'We changed ₱155,000 to ₱160,000: loans go from ₱10,000 to ₱300,000, in steps of ₱10,000. Type another amount if you prefer.',
    );
    expect(await blurWith('154999')).toBe('150,000');
    expect(await blurWith('5')).toBe('10,000');
    expect(await blurWith('999,999')).toBe('300,000');
    expect(screen.getByTestId('amount-adjusted').textContent).toMatch(/^We changed ₱999,999 to ₱300,000:/);
    expect(screen.queryByText(/Loan amount must be between/)).toBeNull();
    // An amount already on a step is not "changed", and typing again takes the note away.
    expect(await blurWith('200000')).toBe('200,000');
    expect(screen.queryByTestId('amount-adjusted')).toBeNull();

    expect(await blurWith('12abc')).toBe('12abc');
    expect(
      screen.getByText('Loan amount must be between ₱10,000 and ₱300,000, in ₱10,000 increments'),
    ).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    await user.type(amount, '{backspace}{backspace}{backspace}');
    expect(screen.queryByText(/Loan amount must be between/)).toBeNull();
  });

  it('shows the domain figures: ₱100,000 over 12 months → ₱9,455.96 a month', async () => {
    const { amount, user } = await openStep1();
    await user.clear(amount);
    await user.type(amount, '100000');
    await user.click(screen.getByRole('radio', { name: '12 months' }));

    expect(screen.getByTestId('monthly-estimate').textContent).toBe('₱9,455.96');
    expect(figure('amount')).toBe('₱100,000.00');
    expect(figure('term')).toBe('12 months');
    expect(figure('monthlyRate')).toBe('2%');
    expect(figure('apr')).toBe('24%');
    expect(figure('effectiveRate')).toBe('26.82%');
    expect(figure('monthlyPayment')).toBe('₱9,455.96');
    // The last instalment's interest is 2 % of its own balance, rounded once (decision 035): ₱9,455.97.
    expect(figure('totalRepayable')).toBe('₱113,471.53');
    expect(figure('totalInterest')).toBe('₱13,471.53');
    expect(figure('fees')).toBe('₱0.00');

    // The same numbers the domain (and so the server's quote) computes, for another choice too.
    await user.clear(amount);
    await user.type(amount, '250000');
    await user.click(screen.getByRole('radio', { name: '24 months' }));
    const expected = estimateDisclosure(250_000, 24, {
      product: defaultOfferedProduct(),
      currency: 'PHP',
      timeZone: 'Asia/Manila',
    });
    expect(figure('monthlyPayment')).toBe(money(expected.monthlyPaymentMinor));
    expect(figure('totalRepayable')).toBe(money(expected.totalRepayableMinor));
    expect(figure('totalInterest')).toBe(money(expected.totalInterestMinor));
  });

  it("uses the product version's rate and fees, as the server quotes them", async () => {
    const configured = defaultOfferedProduct({
      monthlyRateBp: 300,
      fees: { flatMinor: 50_000, percentBp: 100, collection: 'deducted_from_payout' },
    });
    const { amount, user } = await openStep1(canApply, undefined, { body: { items: [configured] } });
    await user.clear(amount);
    await user.type(amount, '100000');
    await user.click(screen.getByRole('radio', { name: '12 months' }));

    const expected = estimateDisclosure(100_000, 12, {
      product: configured,
      currency: 'PHP',
      timeZone: 'Asia/Manila',
    });
    expect(figure('monthlyRate')).toBe('3%');
    expect(figure('apr')).toBe('36%');
    expect(figure('fees')).toBe('₱1,500.00');
    expect(figure('monthlyPayment')).toBe(money(expected.monthlyPaymentMinor));
    expect(screen.getByTestId('monthly-estimate').textContent).toBe(money(expected.monthlyPaymentMinor));
    expect(figure('monthlyPayment')).not.toBe('₱9,455.96');
    // This product takes no late charge: the line says so and names the grace days.
    expect(figure('lateCharge')).toBe('None (3 grace days after each due date)');
  });

  it('shows no figures when the settings cannot be read, and reads them again on "Try again"', async () => {
    let calls = 0;
    mockApi({
      'GET /api/settings': () => {
        calls += 1;
        // A server error is tried three times (see the query client) before the page gives up.
        return calls <= 3
          ? { status: 500, body: errorBody('INTERNAL', 'Something went wrong. Try again.') }
          : { body: defaultSettings() };
      },
      'GET /api/me': signedInMe(borrower),
      'GET /api/applications/mine': canApply,
    });
    renderApp('/loan/application');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('monthly-estimate')).toBeNull();
    await userEvent.setup({ delay: null }).click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByLabelText('Loan amount');
    expect(screen.getByTestId('monthly-estimate').textContent).toBe('₱1,785.26');
  });

  it('refuses to go on with errors: "Please fix the errors before proceeding."', async () => {
    const { fetchMock, user } = await openStep1();
    const phone = screen.getByLabelText('Phone number');
    await user.clear(phone);
    expect(screen.getByRole('button', { name: 'Apply' })).toHaveProperty('disabled', true);
    await user.type(phone, '0917-123');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fix the errors before proceeding.');
    expect(screen.getByText('Phone number must be at least 10 digits and contain only numbers')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/applications/mine')).toHaveLength(1);
  });

  it('shows the SPEC notice in a dialog when the server says the borrower cannot apply', async () => {
    let calls = 0;
    const { router, user } = await openStep1(() => {
      calls += 1;
      // Open on load; by the time Apply is pressed an application exists (e.g. from another tab).
      return calls === 1 ? canApply : { body: { application: pendingApplication(), canApply: false } };
    });
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('You already have an active loan. You cannot apply again.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Go to My Wallet' }).getAttribute('href')).toBe(
      '/wallet',
    );
    expect(router.state.location.pathname).toBe('/loan/application');
    expect(calls).toBe(2);
    // The check also put the open application on the page; the notice stays up over it.
    await screen.findByRole('heading', { name: 'Your application' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('goes to step 2 with phone, amount, period and monthly payment, in router state and the draft', async () => {
    const { amount, router, user } = await openStep1();
    await user.clear(amount);
    await user.type(amount, '100000');
    await user.click(screen.getByRole('radio', { name: '12 months' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/info'));
    const product = defaultOfferedProduct();
    const step1 = {
      phone: '09171234567',
      amount: 100_000,
      termMonths: 12,
      productId: product.productId,
      productVersionId: product.versionId,
      monthlyPaymentMinor: 945_596,
    };
    expect(router.state.location.state).toEqual({ step1 });
    expect(loadTextDraft(borrower.id).step1).toEqual(step1);
  });

  // No input has fetched the draft store yet (beforeEach), so the page must wait for it before drawing the
  // form (step 1 fetches it only when a draft is saved or at the first input; docs/decisions/052).
  it('restores the chosen amount and period after a reload', async () => {
    window.localStorage.setItem(
      `hiram.application-draft.${borrower.id}`,
      JSON.stringify({
        version: 1,
        step1: { phone: '09998887777', amount: 70_000, termMonths: 18, monthlyPaymentMinor: 466_702 },
        info: {},
        signature: null,
      }),
    );
    const { amount } = await openStep1();
    expect(amount.value).toBe('70,000');
    expect((screen.getByLabelText('Phone number') as HTMLInputElement).value).toBe('09998887777');
    expect(screen.getByRole('radio', { name: '18 months' })).toHaveProperty('checked', true);
  });

  it('says it is busy while the rules arrive when Apply is the first tap, then goes on', async () => {
    const { router } = await openStep1();
    const apply = screen.getByRole('button', { name: 'Apply' });
    // A submit with no key, tap or click before it: the rules (and zod) are not in yet.
    fireEvent.submit(apply.closest('form') as HTMLFormElement);
    expect(screen.getByRole('button', { name: 'Checking...' })).toHaveProperty('disabled', true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/info'));
  });

  it('shows an open application up front instead of the form', async () => {
    mockApi({
      'GET /api/me': signedInMe(borrower),
      'GET /api/applications/mine': { body: { application: pendingApplication(), canApply: false } },
    });
    renderApp('/loan/application');
    expect(await screen.findByRole('heading', { name: 'Your application' })).toBeTruthy();
    // Home says where the loan stands, not "Step 1 of 2" (issue #32), with the tracker first.
    expect(screen.getByRole('heading', { name: 'Your loan' })).toBeTruthy();
    expect(screen.queryByText(/Step 1 of 2/)).toBeNull();
    expect(screen.getAllByRole('region')[0]?.getAttribute('aria-labelledby')).toBe('tracker-title');
    expect(screen.getByText('HL-25-000042')).toBeTruthy();
    expect(
      screen.getByText('Your loan is pending approval from the Finance Department. Please be patient.'),
    ).toBeTruthy();
    expect(screen.getByText('You already have an active loan. You cannot apply again.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to My Wallet' }).getAttribute('href')).toBe('/wallet');
    expect(screen.queryByLabelText('Loan amount')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
  });

  it('lets a borrower whose last application was rejected apply again, saying why it was rejected', async () => {
    await openStep1({
      body: {
        application: pendingApplication({
          status: 'rejected',
          rejectReason: 'The ID picture was unreadable.',
        }),
        canApply: true,
      },
    });
    expect(screen.getByText(/was rejected: The ID picture was unreadable\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeTruthy();
  });

  describe('choosing a loan product (docs/decisions/034)', () => {
    const personal = defaultOfferedProduct();
    const salary = defaultOfferedProduct({
      productId: '00000000-0000-4000-8000-00000000f002',
      code: 'salary-loan',
      versionId: '00000000-0000-4000-8000-00000000f202',
      version: 3,
      names: { en: 'Salary loan', fil: 'Pautang sa sahod', zh: '工资贷款', km: 'ប្រាក់កម្ចីប្រាក់ខែ' },
      borrowerAmount: { min: 5_000, max: 50_000, step: 5_000 },
      termsMonths: [3, 6],
      defaultTermMonths: 3,
      monthlyRateBp: 300,
      limit: {
        basis: 'first_loan',
        repeatMaxAmount: 80_000,
        loansNeeded: 2,
        repeatMaxDaysLate: 5,
        qualifyingLoans: 1,
      },
    });
    const both = { body: { items: [personal, salary] } };

    it('shows no choice when one product is offered', async () => {
      await openStep1();
      expect(screen.queryByRole('group', { name: 'Loan product' })).toBeNull();
    });

    it("offers each product with its rate, periods and the borrower's limit, and prices the one chosen", async () => {
      const { amount, user } = await openStep1(canApply, undefined, both);
      const group = screen.getByRole('group', { name: 'Loan product' });
      const personalRadio = within(group).getByRole('radio', { name: /^Personal loan/ });
      const salaryRadio = within(group).getByRole('radio', { name: /^Salary loan/ });
      expect(personalRadio).toHaveProperty('checked', true);
      expect(within(group).getByText('3% a month · 3, 6 months · up to ₱50,000')).toBeTruthy();
      expect(within(group).getByText('2% a month · 6, 12, 18, 24 months · up to ₱300,000')).toBeTruthy();

      await user.clear(amount);
      await user.type(amount, '100000');
      await user.click(salaryRadio);
      expect(salaryRadio).toHaveProperty('checked', true);
      // The amount is clamped to the product's range; the period stays, as this product offers it too.
      expect(amount.value).toBe('50,000');
      expect(screen.getByRole('radio', { name: '6 months' })).toHaveProperty('checked', true);
      expect(screen.queryByRole('radio', { name: '12 months' })).toBeNull();
      expect(screen.getByText('₱5,000 to ₱50,000, in steps of ₱5,000')).toBeTruthy();
      expect(
        screen.getByText(
          'Borrow up to ₱80,000 after repaying loans with no payment more than 5 days late (1 of 2 so far).',
        ),
      ).toBeTruthy();
      expect(figure('monthlyRate')).toBe('3%');
      const expected = estimateDisclosure(50_000, 6, {
        product: salary,
        currency: 'PHP',
        timeZone: 'Asia/Manila',
      });
      expect(screen.getByTestId('monthly-estimate').textContent).toBe(money(expected.monthlyPaymentMinor));
      const pdf = screen.getByRole('link', { name: /disclosure/i }).getAttribute('href') ?? '';
      expect(pdf).toContain(`productVersionId=${salary.versionId}`);
    });

    it('carries the chosen product version to step 2', async () => {
      const { amount, router, user, unmount } = await openStep1(canApply, undefined, both);
      await user.click(screen.getByRole('radio', { name: '12 months' }));
      await user.click(screen.getByRole('radio', { name: /^Salary loan/ }));
      // 12 months is not offered by this product: its default period is chosen instead.
      expect(screen.getByRole('radio', { name: '3 months' })).toHaveProperty('checked', true);
      await user.clear(amount);
      await user.type(amount, '20000');
      await user.click(screen.getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/loan/info'));
      expect(router.state.location.state).toMatchObject({
        step1: {
          amount: 20_000,
          termMonths: 3,
          productId: salary.productId,
          productVersionId: salary.versionId,
        },
      });
      // Step 2 is not under test here: its signature pad needs a canvas jsdom does not have.
      unmount();
    });

    it("says a returning borrower's larger limit is theirs", async () => {
      await openStep1(canApply, undefined, {
        body: {
          items: [
            defaultOfferedProduct({
              borrowerAmount: { min: 10_000, max: 300_000, step: 10_000 },
              limit: {
                basis: 'repeat',
                repeatMaxAmount: 300_000,
                loansNeeded: 1,
                repeatMaxDaysLate: 0,
                qualifyingLoans: 1,
              },
            }),
          ],
        },
      });
      expect(
        screen.getByText('You repaid your earlier loans on time: you may borrow up to ₱300,000.'),
      ).toBeTruthy();
    });

    it('says so when no product is offered', async () => {
      mockApi({
        'GET /api/me': signedInMe(borrower),
        'GET /api/applications/mine': canApply,
        'GET /api/products': { body: { items: [] } },
      });
      renderApp('/loan/application');
      expect(
        await screen.findByText('No loan product is offered at the moment. Please check again later.'),
      ).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
    });
  });
});
