import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildDisclosure,
  defaultLoanProduct,
  defaultRepaymentRules,
  loanTermsOf,
} from '../../../../domain/loan';
import { formatMoney } from '../../../../domain/money';
import type { MyApplicationDto } from '../../../../domain/schemas/application';
import { createMemoryFileStore, setDraftFileStore } from '../../../lib/application-draft/file-store';
import {
  defaultOfferedProduct,
  errorBody,
  type MockResponse,
  makeUser,
  mockApi,
  renderApp,
  type StubResponse,
  signedInMe,
} from '../../../test/render';
import { loadDraftFiles, loadTextDraft, updateTextDraft } from '../draft/draft-store';
import { pendingApplication } from '../test/fixtures';

// signature_pad draws on a real canvas, which jsdom does not have: a stand-in that "signs" on demand.
const pads = vi.hoisted(() => ({
  list: [] as { sign(): void; isEmpty(): boolean }[],
  /** How many pads to refuse next, as a browser that blocks canvas drawing does. */
  refuse: 0,
}));
vi.mock('signature_pad', () => ({
  default: class FakeSignaturePad extends EventTarget {
    private empty = true;
    constructor(readonly canvas: HTMLCanvasElement) {
      super();
      if (pads.refuse > 0) {
        pads.refuse -= 1;
        throw new TypeError("Cannot set properties of null (setting 'fillStyle')");
      }
      pads.list.push(this);
    }
    clear() {
      this.empty = true;
    }
    isEmpty() {
      return this.empty;
    }
    on() {}
    off() {}
    fromDataURL() {
      this.empty = false;
      return Promise.resolve();
    }
    toDataURL() {
      // A 1×1 PNG.
      return 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    }
    sign() {
      this.empty = false;
      this.dispatchEvent(new Event('endStroke'));
    }
  },
}));

const borrower = makeUser();
const step1 = { phone: '09171234567', amount: 100_000, termMonths: 12, monthlyPaymentMinor: 945_596 };
const disclosure = buildDisclosure({
  amountMinor: 10_000_000,
  termMonths: 12,
  currency: 'PHP',
  terms: loanTermsOf(defaultLoanProduct, defaultRepaymentRules),
  startDate: '2025-03-01',
});
const quote: StubResponse<'POST /api/applications/quote'> = {
  body: { disclosure, disclosureSha256: 'a'.repeat(64) },
};
let store: ReturnType<typeof createMemoryFileStore>;

beforeEach(() => {
  pads.list = [];
  pads.refuse = 0;
  store = createMemoryFileStore();
  setDraftFileStore(store);
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:picture-${++n}`);
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    scale: () => {},
  } as unknown as CanvasRenderingContext2D);
});
afterEach(() => setDraftFileStore(null));

const jpeg = (name = 'id.jpg') =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70])], name, { type: 'image/jpeg' });
const png = (name = 'selfie.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], name, {
    type: 'image/png',
  });

async function openStep2(
  handlers: Record<string, MockResponse | ((r: { body: unknown }) => MockResponse)> = {},
) {
  updateTextDraft(borrower.id, { step1 });
  const fetchMock = mockApi({
    'GET /api/me': signedInMe(borrower),
    'POST /api/applications/quote': quote,
    'GET /api/applications/mine': { body: { application: null, canApply: true } },
    ...handlers,
  });
  const view = renderApp('/loan/info');
  // jsdom computes styles slowly; the pointer-events check walks every ancestor on every event.
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  return { ...view, fetchMock, user };
}

/** Opens step 2 with whatever step 1 left in the draft and expects step 1 back, to be done again. */
async function expectSentBackToStep1() {
  mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/applications/mine': { body: { application: null, canApply: true } },
  });
  const { router } = renderApp('/loan/info');
  await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
  expect(await screen.findByText('Step 1 of 2', {}, { timeout: 5000 })).toBeTruthy();
}

/** An accordion control (the "still to complete" links carry the same names). */
const control = (name: string) => {
  const found = screen
    .getAllByRole('button', { name: new RegExp(`^${name}`) })
    .filter((button) => button.hasAttribute('aria-expanded'));
  if (found.length !== 1) throw new Error(`expected one section control ${name}, found ${found.length}`);
  return found[0]!;
};
const mark = (section: string) => within(control(section)).getByRole('img').getAttribute('aria-label');

type User = ReturnType<typeof userEvent.setup>;

/** Types a whole value at once (as a paste): fast enough for filling the long form in jsdom. */
async function enter(user: User, field: HTMLElement, value: string) {
  await user.click(field);
  await user.paste(value);
}

async function fillIdentity(user: User) {
  await enter(user, await screen.findByLabelText('Full Name'), 'Maria Santos');
  await enter(user, screen.getByLabelText('ID Number'), 'N01-23-456789');
  await user.upload(screen.getByLabelText(/^Front ID picture/), jpeg('front.jpg'));
  await user.upload(screen.getByLabelText(/^Back ID picture/), jpeg('back.jpg'));
  await user.upload(screen.getByLabelText(/^Selfie with ID picture/), png());
  await screen.findByRole('button', { name: 'Enlarge: Selfie with ID picture' });
}

async function fillBasicAndBank(user: User) {
  await user.click(control('Basic Information'));
  await enter(user, screen.getByLabelText('Company/Business Name'), 'Santos Bakery');
  await enter(user, screen.getByLabelText('Position'), 'Owner');
  await enter(user, screen.getByLabelText(/^Monthly Income/), '30000');
  await enter(user, screen.getByLabelText(/^Monthly Expense/), '12000');
  await enter(user, screen.getByLabelText('Address'), '12 Mabini St, Quezon City');
  await enter(user, screen.getByLabelText('Contact Name'), 'Jose Santos');
  await enter(user, screen.getByLabelText('Contact Phone'), '09181234567');
  await enter(user, screen.getByLabelText('Contact Address'), '14 Rizal Ave, Manila');
  await user.selectOptions(screen.getByLabelText('Relation'), 'Sibling');
  await user.click(control('Bank/Wallet Information'));
  await enter(user, screen.getByLabelText('Bank/Wallet Name'), 'GCash');
  await enter(user, screen.getByLabelText(/^Account Number/), '09171234567');
}

async function sign(user: User) {
  await user.click(control('Signature'));
  // The disclosure is shown before the pad (its total repayable, as the domain computes it).
  await screen.findByText(formatMoney(disclosure.totalRepayableMinor, { locale: 'en' }));
  await waitFor(() => expect(pads.list.length).toBeGreaterThan(0));
  await act(async () => pads.list.at(-1)!.sign());
}

/** Every section filled in and the terms signed, as a borrower ready to submit. */
async function completeAllSections(user: User) {
  await fillIdentity(user);
  await fillBasicAndBank(user);
  await sign(user);
}

const submitButton = () =>
  screen.getByRole('button', { name: /^(Submit Loan|Submitting\.\.\.)$/ }) as HTMLButtonElement;

/** The application the server answers a submission with. */
function created(overrides: Partial<MyApplicationDto> = {}): MyApplicationDto {
  return pendingApplication({
    loanNumber: 'HL-25-000007',
    phone: step1.phone,
    disclosure,
    disclosureSha256: 'a'.repeat(64),
    ...overrides,
  });
}

// Picture checks and the lazy step 2 are asynchronous; a busy machine needs more than 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom is slow with a form this size, more so on a busy machine.
describe('step 2 — /loan/info', { timeout: 60_000 }, () => {
  it('sends a borrower without step-1 data back to step 1', async () => {
    await expectSentBackToStep1();
  });

  it('sends a draft whose amount the lender no longer offers back to step 1', async () => {
    updateTextDraft(borrower.id, { step1: { ...step1, amount: 123 } });
    await expectSentBackToStep1();
  });

  it('sends a draft made under a product version no longer offered back to step 1', async () => {
    updateTextDraft(borrower.id, {
      step1: { ...step1, productId: 'p-old', productVersionId: '00000000-0000-4000-8000-0000000000ff' },
    });
    await expectSentBackToStep1();
  });

  it('asks for the quote under the chosen product version, and names the product', async () => {
    const { fetchMock } = await openStep2();
    expect(await screen.findByText('Step 2 of 2')).toBeTruthy();
    expect(screen.getByText('Personal loan')).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => url === '/api/applications/quote')).toBe(true),
    );
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/applications/quote')!;
    expect(JSON.parse(String(init?.body))).toEqual({
      amount: 100_000,
      termMonths: 12,
      productVersionId: defaultOfferedProduct().versionId,
    });
  });

  it('goes back to step 1, saying why, when the product changed meanwhile (PRODUCT_TERMS_UPDATED)', async () => {
    const { router, user } = await openStep2({
      'POST /api/applications': {
        status: 409,
        body: errorBody(
          'PRODUCT_TERMS_UPDATED',
          'The terms of this loan product have just changed. Please review the new terms and apply again.',
        ),
      },
    });
    await completeAllSections(user);
    await user.click(submitButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
    expect(
      await screen.findByText(
        'The terms of this loan product have just changed. Please review the new terms and apply again.',
      ),
    ).toBeTruthy();
  });

  it('shows "Step 2 of 2", the step-1 choice and four sections, none complete yet', async () => {
    await openStep2();
    expect(await screen.findByText('Step 2 of 2')).toBeTruthy();
    expect(screen.getAllByText('₱100,000.00').length).toBeGreaterThan(0);
    expect(screen.getByText('₱9,455.96 / month')).toBeTruthy();
    for (const section of ['Identity', 'Basic Information', 'Bank/Wallet Information', 'Signature']) {
      expect(mark(section)).toBe('Not complete');
    }
    expect((screen.getByLabelText('Phone Number') as HTMLInputElement).value).toBe('09171234567');
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByText('Please complete all sections before submitting.')).toBeTruthy();
  });

  it('says "{Field} is required" and "{Field} must be digits only" once a field is visited', async () => {
    const { user } = await openStep2();
    const name = await screen.findByLabelText('Full Name');
    await user.click(name);
    await user.tab();
    expect(screen.getByText('Full Name is required')).toBeTruthy();
    expect(screen.queryByText('ID Number is required')).toBeNull();

    await user.click(control('Basic Information'));
    await user.type(screen.getByLabelText(/^Monthly Income/), '30k');
    await user.tab();
    expect(screen.getByText('Monthly Income must be digits only')).toBeTruthy();
    // A mobile written the common way is taken as the same number (issue #32); letters are still refused.
    await user.type(screen.getByLabelText('Contact Phone'), '0918-123-4567');
    await user.tab();
    expect(screen.queryByText('Contact Phone must be digits only')).toBeNull();
    await user.clear(screen.getByLabelText('Contact Phone'));
    await user.type(screen.getByLabelText('Contact Phone'), '0918-CALL-ME');
    await user.tab();
    expect(screen.getByText('Contact Phone must be digits only')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Email/), 'maria@');
    await user.tab();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();

    // Closing a section shows everything still missing in it.
    await user.click(control('Basic Information'));
    await user.click(control('Basic Information'));
    expect(screen.getByText('Company/Business Name is required')).toBeTruthy();
    expect(screen.getByText('Relation is required')).toBeTruthy();
  });

  it('checks pictures by their bytes: a PDF renamed .jpg is refused', async () => {
    const { user } = await openStep2();
    await screen.findByLabelText('Full Name');
    const pdf = new File(['%PDF-1.4\n1 0 obj'], 'front.jpg', { type: 'image/jpeg' });
    await user.upload(screen.getByLabelText(/^Front ID picture/), pdf);
    expect(await screen.findByText('Pictures must be JPEG, PNG or WebP images')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enlarge: Front ID picture' })).toBeNull();
    expect(store.keys()).toEqual([]);

    await user.upload(screen.getByLabelText(/^Front ID picture/), jpeg('front.jpg'));
    expect(await screen.findByRole('button', { name: 'Enlarge: Front ID picture' })).toBeTruthy();
    expect(screen.queryByText('Pictures must be JPEG, PNG or WebP images')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Enlarge: Front ID picture' }));
    expect(
      within(await screen.findByRole('dialog')).getByRole('img', { name: 'Front ID picture' }),
    ).toBeTruthy();
  });

  it('marks each section complete as it validates and enables Submit only when all four are', async () => {
    const { user } = await openStep2();
    await fillIdentity(user);
    expect(mark('Identity')).toBe('Complete');
    expect(submitButton().disabled).toBe(true);
    await fillBasicAndBank(user);
    expect(mark('Basic Information')).toBe('Complete');
    expect(mark('Bank/Wallet Information')).toBe('Complete');
    expect(mark('Signature')).toBe('Not complete');
    expect(submitButton().disabled).toBe(true);

    await sign(user);
    expect(mark('Signature')).toBe('Complete');
    expect(submitButton().disabled).toBe(false);
    expect(screen.queryByText('Please complete all sections before submitting.')).toBeNull();

    // Clearing the signature invalidates the section again.
    // The panel may still be opening (Mantine animates its height).
    await user.click(await screen.findByRole('button', { name: 'Clear' }));
    expect(mark('Signature')).toBe('Not complete');
    expect(screen.getByText('Please sign in the box')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
  });

  it('submits everything as multipart, clears the draft and shows the success dialog; Close goes to /wallet', async () => {
    const { user, fetchMock, router } = await openStep2({
      'POST /api/applications': { status: 201, body: created() },
    });
    await completeAllSections(user);
    expect(loadTextDraft(borrower.id).info.fullName).toBe('Maria Santos');
    await waitFor(() => expect(store.keys().length).toBe(4));

    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: 'Application submitted' });
    expect(within(dialog).getByText(/HL-25-000007/)).toBeTruthy();

    const call = fetchMock.mock.calls.find(([url]) => url === '/api/applications');
    const init = call?.[1] as RequestInit;
    expect(new Headers(init.headers).get('x-csrf-token')).toBe('csrf-test-token');
    const form = init.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({
      fullName: 'Maria Santos',
      idNumber: 'N01-23-456789',
      companyName: 'Santos Bakery',
      position: 'Owner',
      phone: '09171234567',
      income: '30000',
      monthlyExpense: '12000',
      address: '12 Mabini St, Quezon City',
      email: '',
      contactName: 'Jose Santos',
      contactPhone: '09181234567',
      contactAddress: '14 Rizal Ave, Manila',
      contactRelation: 'sibling',
      bankName: 'GCash',
      accountNumber: '09171234567',
      amount: '100000',
      termMonths: '12',
      productVersionId: defaultOfferedProduct().versionId,
      disclosureSha256: 'a'.repeat(64),
    });
    expect((form.get('idFront') as File).name).toBe('front.jpg');
    expect((form.get('idBack') as File).name).toBe('back.jpg');
    expect((form.get('selfie') as File).name).toBe('selfie.png');
    expect((form.get('signature') as File).type).toBe('image/png');

    await waitFor(() => expect(store.keys()).toEqual([]));
    expect(loadTextDraft(borrower.id)).toMatchObject({ step1: null, info: {} });

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });

  it("shows the server's field errors on their fields and re-opens their section", async () => {
    const { user } = await openStep2({
      'POST /api/applications': {
        status: 400,
        body: errorBody('SECTIONS_INCOMPLETE', 'Please complete all sections before submitting.', {
          fields: {
            selfie: { code: 'IMAGE_TOO_MANY_PIXELS', message: 'This picture has too many pixels.' },
            accountNumber: {
              code: 'FIELD_DIGITS_ONLY',
              message: 'Account Number must be digits only',
              params: { fieldKey: 'accountNumber' },
            },
          },
        }),
      },
    });
    await completeAllSections(user);
    // Close Identity first: the error must open it again.
    await user.click(control('Identity'));
    expect(control('Identity').getAttribute('aria-expanded')).toBe('false');
    await user.click(submitButton());

    expect(
      await screen.findByText('This picture has too many pixels. Please use a smaller picture.'),
    ).toBeTruthy();
    expect(screen.getByText('Account Number must be digits only')).toBeTruthy();
    expect(control('Identity').getAttribute('aria-expanded')).toBe('true');
    expect(mark('Identity')).toBe('Not complete');
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('Please complete all sections before submitting.');

    // Choosing another selfie answers the server's complaint.
    await user.upload(screen.getByLabelText(/^Selfie with ID picture/), png('smaller.png'));
    await waitFor(() => expect(mark('Identity')).toBe('Complete'));
  });

  it('keeps the draft and says "Something went wrong. Try again." when the submission fails', async () => {
    const { user } = await openStep2({
      'POST /api/applications': {
        status: 500,
        body: errorBody('SUBMIT_FAILED', 'Something went wrong. Try again.'),
      },
    });
    await completeAllSections(user);
    await user.click(submitButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong. Try again.');
    expect(submitButton().disabled).toBe(false);
    expect(loadTextDraft(borrower.id).info.fullName).toBe('Maria Santos');
    expect(Object.keys(await loadDraftFiles(store, borrower.id)).sort()).toEqual([
      'idBack',
      'idFront',
      'selfie',
      'signature',
    ]);
  });

  it('on TERMS_CHANGED fetches the new terms and asks for a new signature', async () => {
    let quotes = 0;
    const { user } = await openStep2({
      'POST /api/applications/quote': () => {
        quotes += 1;
        return { body: { disclosure, disclosureSha256: (quotes === 1 ? 'a' : 'b').repeat(64) } };
      },
      'POST /api/applications': {
        status: 409,
        body: errorBody('TERMS_CHANGED', 'The loan terms have changed. Please review them and sign again.', {
          fields: { signature: { code: 'TERMS_CHANGED', message: '' } },
        }),
      },
    });
    await completeAllSections(user);
    await user.click(submitButton());
    expect(
      await screen.findByText('The loan terms have changed. Please review them and sign again.'),
    ).toBeTruthy();
    await waitFor(() => expect(quotes).toBe(2));
    expect(mark('Signature')).toBe('Not complete');
    expect(submitButton().disabled).toBe(true);
    await act(async () => pads.list.at(-1)!.sign());
    expect(mark('Signature')).toBe('Complete');
  });

  it('says so when the signature pad cannot start, and "Try again" starts it', async () => {
    pads.refuse = 1;
    const { user } = await openStep2();
    await screen.findByText('Step 2 of 2');
    await user.click(control('Signature'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'The signature pad could not be loaded. Check your connection and try again.',
    );
    expect(pads.list).toHaveLength(0);
    const clear = () => screen.getByRole('button', { name: 'Clear' }) as HTMLButtonElement;
    expect(clear().disabled).toBe(true);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(pads.list).toHaveLength(1));
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    expect(clear().disabled).toBe(false);
    await act(async () => pads.list.at(-1)!.sign());
    expect(mark('Signature')).toBe('Complete');
  });

  it('restores the typed fields and the pictures after a reload', async () => {
    const first = await openStep2();
    await first.user.type(await screen.findByLabelText('Full Name'), 'Maria Santos');
    await first.user.upload(screen.getByLabelText(/^Front ID picture/), jpeg('front.jpg'));
    await screen.findByRole('button', { name: 'Enlarge: Front ID picture' });
    await waitFor(() => expect(store.keys()).toEqual([`${borrower.id}/idFront`]));
    first.unmount();

    // A new page: only the saved draft is left.
    await openStep2();
    expect(((await screen.findByLabelText('Full Name')) as HTMLInputElement).value).toBe('Maria Santos');
    expect(await screen.findByRole('button', { name: 'Enlarge: Front ID picture' })).toBeTruthy();
    expect(screen.getByText('front.jpg')).toBeTruthy();
  });

  it('shows the active-loan notice when the server refuses a second application', async () => {
    const { user } = await openStep2({
      'POST /api/applications': {
        status: 409,
        body: errorBody('ACTIVE_LOAN_EXISTS', 'You already have an active loan. You cannot apply again.'),
      },
    });
    await completeAllSections(user);
    await user.click(submitButton());
    const dialog = await screen.findByRole('dialog', { name: 'You already have a loan' });
    expect(within(dialog).getByText('You already have an active loan. You cannot apply again.')).toBeTruthy();
  });
});
