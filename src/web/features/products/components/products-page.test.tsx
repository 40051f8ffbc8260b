import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ProductDetailDto, ProductVersionDto } from '../../../../domain/schemas/products';
import { errorBody, mockApi } from '../../../test/render';
import { admin, officer, renderBackOffice, staffBase } from '../../../test/staff';

const productId = '00000000-0000-4000-8000-00000000f001';

function version(
  overrides: Partial<ProductVersionDto> = {},
  terms: Partial<ProductVersionDto['terms']> = {},
) {
  return {
    id: '00000000-0000-4000-8000-00000000f101',
    version: 1,
    createdAt: '2026-11-20T02:00:00.000Z',
    createdBy: null,
    reason: null,
    loansSigned: 3,
    ...overrides,
    terms: {
      names: { en: 'Personal loan', fil: 'Personal na pautang', zh: '个人贷款', km: 'ប្រាក់កម្ចីផ្ទាល់ខ្លួន' },
      borrowerAmount: { min: 10_000, max: 300_000, step: 10_000 },
      staffAmount: { min: 50_000, max: 2_000_000, step: 10_000 },
      termsMonths: [6, 12, 18, 24],
      defaultTermMonths: 6,
      monthlyRateBp: 200,
      fees: { flatMinor: 0, percentBp: 0, collection: 'deducted_from_payout' as const },
      lateChargeMonthlyBp: 0,
      graceDays: 3,
      fourEyesThresholdMinor: 10_000_000,
      eligibility: { firstLoanMaxAmount: 300_000, repeat: null },
      status: 'active' as const,
      ...terms,
    },
  } satisfies ProductVersionDto;
}

const v1 = version();
const v2 = version(
  {
    id: '00000000-0000-4000-8000-00000000f102',
    version: 2,
    createdBy: 'adele',
    reason: 'Late payments rose',
    loansSigned: 0,
  },
  { lateChargeMonthlyBp: 300 },
);

function detail(versions: ProductVersionDto[]): ProductDetailDto {
  return {
    id: productId,
    code: 'personal-loan',
    isDefault: true,
    createdAt: '2026-11-20T02:00:00.000Z',
    current: versions[0]!,
    versions,
  };
}

const list = (versions: ProductVersionDto[]) => ({
  body: { items: [{ ...detail(versions), versions: undefined }] },
});

function posted(fetchMock: ReturnType<typeof mockApi>, url: string) {
  const call = fetchMock.mock.calls.findLast(([u, init]) => u === url && init?.method === 'POST');
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

describe('Loan Products (back office)', { timeout: 30_000 }, () => {
  it('lists every product with its current version; admins may add one', async () => {
    mockApi({ ...staffBase(admin), 'GET /api/staff/products': list([v2, v1]) });
    renderBackOffice('/admin/products');
    const table = await screen.findByRole('table', { name: 'Loan Products' });
    const row = within(table).getByRole('link', { name: 'Personal loan' }).closest('tr')!;
    expect(row.textContent).toContain('Default product (from the settings)');
    expect(row.textContent).toContain('2%');
    expect(row.textContent).toContain('₱10,000 to ₱300,000');
    expect(row.textContent).toContain('6, 12, 18, 24 months');
    expect(row.textContent).toContain('3%');
    expect(row.textContent).toContain('Active');
    expect(screen.getByRole('link', { name: 'New product' }).getAttribute('href')).toBe(
      '/admin/products/new',
    );
    expect(screen.getByRole('link', { name: 'Loan Products' })).toBeTruthy();
  });

  it('lets officers read the products, without the buttons that change them', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/products': list([v1]),
      [`GET /api/staff/products/${productId}`]: { body: detail([v1]) },
    });
    renderBackOffice(`/admin/products/${productId}`);
    expect(await screen.findByRole('heading', { name: 'Current terms (version 1)' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retire' })).toBeNull();
  });

  it('shows the version history with what each version changed and who saved it', async () => {
    mockApi({
      ...staffBase(admin),
      [`GET /api/staff/products/${productId}`]: { body: detail([v2, v1]) },
    });
    renderBackOffice(`/admin/products/${productId}`);
    expect(await screen.findByRole('heading', { name: 'Current terms (version 2)' })).toBeTruthy();
    const history = screen.getByRole('region', { name: 'Version history' });
    const entries = within(history).getAllByRole('listitem');
    expect(entries[0]!.textContent).toMatch(/^Version 2 · .+ · adele/);
    expect(entries[0]!.textContent).toContain('Late charge a month: 0% → 3%');
    expect(entries[0]!.textContent).toContain('Why: Late payments rose');
    expect(entries[0]!.textContent).toContain('Loans signed: 0');
    expect(entries.at(-1)!.textContent).toMatch(/Version 1 · .+ · from the settings/);
    expect(entries.at(-1)!.textContent).toContain('Created with these terms.');
    expect(screen.getByText('3% a month of the overdue amount, after 3 grace days')).toBeTruthy();
  });

  it('creates a product: every term in the form, checked before sending, and the server’s reasons on their fields', async () => {
    const user = userEvent.setup({ delay: null });
    const created = detail([version({ id: '00000000-0000-4000-8000-00000000f301' })]);
    let attempts = 0;
    const fetchMock = mockApi({
      ...staffBase(admin),
      'GET /api/staff/products': list([v1]),
      'POST /api/staff/products': () => {
        attempts += 1;
        if (attempts === 1)
          return {
            status: 400,
            body: errorBody('PRODUCT_INVALID', 'Please correct the highlighted fields.', {
              fields: {
                monthlyRateBp: {
                  code: 'PRODUCT_RATE_ABOVE_CAP',
                  message: 'The monthly interest rate must be from 0% to 6% (the legal ceiling).',
                },
              },
            }),
          };
        return attempts === 2
          ? {
              status: 409,
              body: errorBody('PRODUCT_CODE_TAKEN', 'Another product already has this code.', {
                fields: {
                  code: { code: 'PRODUCT_CODE_TAKEN', message: 'Another product already has this code.' },
                },
              }),
            }
          : { status: 201, body: { ...created, code: 'salary-loan', isDefault: false } };
      },
      [`GET /api/staff/products/${productId}`]: { body: created },
    });
    const { router } = renderBackOffice('/admin/products/new');
    await screen.findByRole('heading', { name: 'New loan product' });
    const type = async (label: RegExp | string, value: string) => {
      const field = screen.getAllByLabelText(label)[0]!;
      await user.clear(field);
      await user.type(field, value);
    };
    // Text that is no number is refused before anything is sent; the server's reasons land on their fields.
    await type(/^Code/, 'salary-loan');
    await type('Name in English', 'Salary loan');
    await type('Name in Filipino', 'Pautang sa sahod');
    await type('Name in Chinese', '工资贷款');
    await type('Name in Khmer', 'ប្រាក់កម្ចីប្រាក់ខែ');
    const [bMin, sMin] = screen.getAllByLabelText('Minimum');
    const [bMax, sMax] = screen.getAllByLabelText('Maximum');
    const [bStep, sStep] = screen.getAllByLabelText('Step');
    for (const [field, value] of [
      [bMin, '5000'],
      [bMax, '50000'],
      [bStep, '5000'],
      [sMin, '5000'],
      [sMax, '100000'],
      [sStep, '5000'],
    ] as const) {
      await user.type(field!, value);
    }
    await type(/^Periods offered/, '3, 6');
    await type(/^Period chosen first/, '3');
    await type(/^Monthly interest rate/, 'two');
    await type(/^Second approval above/, '50000');
    await type(/^First-loan limit/, '20000');
    await user.click(
      screen.getByRole('checkbox', { name: 'A larger limit for borrowers who repaid on time' }),
    );
    await type('Loans repaid', '1');
    await type('Most days any payment was late', '5');
    await type(/^Larger limit/, '50000');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    expect(
      await screen.findByText('The monthly interest rate must be from 0% to 6% (the legal ceiling).'),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Please correct the highlighted fields.');
    expect(posted(fetchMock, '/api/staff/products')).toBeUndefined();
    // Above the legal ceiling: the server says so, on the same field.
    await type(/^Monthly interest rate/, '7');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(attempts).toBe(1));
    expect(
      await screen.findByText('The monthly interest rate must be from 0% to 6% (the legal ceiling).'),
    ).toBeTruthy();

    await type(/^Monthly interest rate/, '3.5');
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    expect(
      await screen.findByText('Another product already has this code.', {
        selector: '.mantine-TextInput-error',
      }),
    ).toBeTruthy();
    expect(posted(fetchMock, '/api/staff/products')).toEqual({
      code: 'salary-loan',
      terms: {
        names: { en: 'Salary loan', fil: 'Pautang sa sahod', zh: '工资贷款', km: 'ប្រាក់កម្ចីប្រាក់ខែ' },
        borrowerAmount: { min: 5_000, max: 50_000, step: 5_000 },
        staffAmount: { min: 5_000, max: 100_000, step: 5_000 },
        termsMonths: [3, 6],
        defaultTermMonths: 3,
        monthlyRateBp: 350,
        fees: { flatMinor: 0, percentBp: 0, collection: 'deducted_from_payout' },
        lateChargeMonthlyBp: 0,
        graceDays: 3,
        fourEyesThresholdMinor: 5_000_000,
        eligibility: {
          firstLoanMaxAmount: 20_000,
          repeat: { afterLoans: 1, maxDaysLate: 5, maxAmount: 50_000 },
        },
      },
    });

    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/products/${productId}`));
  });

  it('edits a product into its next version, starting from the current terms', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = mockApi({
      ...staffBase(admin),
      [`GET /api/staff/products/${productId}`]: { body: detail([v1]) },
      [`POST /api/staff/products/${productId}/versions`]: { status: 201, body: detail([v2, v1]) },
    });
    const { router } = renderBackOffice(`/admin/products/${productId}/edit`);
    expect(await screen.findByRole('heading', { name: 'Edit Personal loan' })).toBeTruthy();
    expect(
      screen.getByText(/Saving makes version 2\. Loans already signed keep the terms they were signed under/),
    ).toBeTruthy();
    const late = screen.getByLabelText(/^Late charge a month/) as HTMLInputElement;
    expect(late.value).toBe('0');
    await user.clear(late);
    await user.type(late, '3');
    await user.type(screen.getByLabelText(/^Why this change/), 'Late payments rose');
    await user.click(screen.getByRole('button', { name: 'Save new version' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/products/${productId}`));
    const body = posted(fetchMock, `/api/staff/products/${productId}/versions`);
    expect(body).toMatchObject({ basedOnVersion: 1, reason: 'Late payments rose' });
    expect(body.terms).toEqual({ ...v1.terms, status: undefined, lateChargeMonthlyBp: 300 });
  });

  it('retires a product with a reason', async () => {
    const user = userEvent.setup({ delay: null });
    const retired = version(
      { id: '00000000-0000-4000-8000-00000000f103', version: 2 },
      { status: 'retired' },
    );
    const fetchMock = mockApi({
      ...staffBase(admin),
      [`GET /api/staff/products/${productId}`]: { body: detail([v1]) },
      'GET /api/staff/products': list([v1]),
      [`POST /api/staff/products/${productId}/retire`]: { body: detail([retired, v1]) },
    });
    renderBackOffice(`/admin/products/${productId}`);
    await user.click(await screen.findByRole('button', { name: 'Retire' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire Personal loan' });
    await user.type(within(dialog).getByRole('textbox'), 'Replaced by the salary loan');
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }));
    await waitFor(() =>
      expect(posted(fetchMock, `/api/staff/products/${productId}/retire`)).toEqual({
        basedOnVersion: 1,
        reason: 'Replaced by the salary loan',
      }),
    );
  });
});
