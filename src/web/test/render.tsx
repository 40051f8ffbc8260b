import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { defaultLoanProduct } from '../../domain/loan';
import type { OfferedProduct } from '../../domain/schemas/offered-products';
import { noticeSectionIds, type PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { DEFAULT_TIME_ZONE, type PublicSettings } from '../../domain/schemas/settings';
import type { MeResponse, UserDto } from '../../domain/schemas/user';
import type { AccountResponse } from '../../domain/schemas/wallet';
import { AppProviders } from '../app/providers';
import { AppRoutes } from '../app/routes';
import { setCsrfToken } from '../lib/api';
import type { ApiResponses, ErrorBody } from './api-responses';
import { testQueryClient } from './query-clients';
import { createTestRouter, RouterProbe } from './router-probe';

/** Renders the real route tree at `path` with fresh providers; Mantine transitions and portals are off. */
export function renderApp(path: string) {
  setCsrfToken(null);
  const queryClient = testQueryClient();
  const router = createTestRouter();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <RouterProbe router={router} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** One component inside the app's providers (theme, i18n, a fresh query client unless given), without the router. */
export function renderWithProviders(ui: ReactNode, queryClient = testQueryClient()) {
  return render(
    <AppProviders queryClient={queryClient} env="test">
      {ui}
    </AppProviders>,
  );
}

/** A stubbed answer: the route's DTO (see ApiResponses), or an error body with its status. */
export interface MockResponse<T = unknown> {
  status?: number;
  body?: T | ErrorBody;
}

/** A stubbed answer for one route of ApiResponses. */
export type StubResponse<K extends keyof ApiResponses> = MockResponse<ApiResponses[K]>;

type Handler<T = unknown> =
  | MockResponse<T>
  | ((request: { body: unknown; headers: Headers }) => MockResponse<T> | Promise<MockResponse<T>>);

/** Known fixed paths are typed by their DTO; other keys come from `stub()`, which types them itself. */
export type MockTable = { [K in keyof ApiResponses]?: Handler<ApiResponses[K]> } & Record<string, Handler>;

/** `GET /api/x?page=2` → `GET /api/x`. */
type RouteOf<K extends string> = K extends `${infer Route}?${string}` ? Route : K;
/** The `:name` parameters of a route pattern. */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type ResponseOf<K extends string> = ApiResponses[RouteOf<K> & keyof ApiResponses];

/**
 * A typed stub for a route with path parameters or a query string, spread into `mockApi`'s table:
 * `...stub('POST /api/staff/disbursements/:id/paid', { id }, { body: paid })` or
 * `...stub('GET /api/admin/users?phone=0917', { body: page })`. The key must be a route of ApiResponses
 * (with its query string, if any, as the client sends it), the parameters must be the route's, and the
 * answer must be that route's DTO or an error body.
 */
export function stub<K extends string>(
  key: K & (RouteOf<K> extends keyof ApiResponses ? unknown : 'is not a route in ApiResponses'),
  ...rest: [ParamsOf<RouteOf<K>>] extends [never]
    ? [handler: Handler<ResponseOf<K>>]
    : [params: Record<ParamsOf<RouteOf<K>>, string>, handler: Handler<ResponseOf<K>>]
): Readonly<Record<string, Handler>> {
  const [params, handler] = (rest.length === 2 ? rest : [{}, rest[0]]) as [Record<string, string>, Handler];
  const url = key.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`stub(${key}): no value for :${name}`);
    return encodeURIComponent(value);
  });
  return { [url]: handler };
}

/** GET /api/settings as a server with the SPEC §6 defaults answers it. */
export function defaultSettings(overrides: Partial<PublicSettings> = {}): PublicSettings {
  return {
    currency: defaultLoanProduct.currency,
    timeZone: DEFAULT_TIME_ZONE,
    supportEmail: 'support@example.com',
    applicationReviewHours: 24,
    regulatorContact: 'Securities and Exchange Commission (SEC) Philippines; www.sec.gov.ph',
    defaultCreditScore: defaultLoanProduct.defaultCreditScore,
    paymentChannels: [
      { code: 'bank_transfer', name: 'Bank transfer', accountDetails: null, instructions: null },
    ],
    ...overrides,
  };
}

/** One product of GET /api/products: the default product's version 1 with the SPEC §6 terms, for a first loan. */
export function defaultOfferedProduct(overrides: Partial<OfferedProduct> = {}): OfferedProduct {
  return {
    productId: '00000000-0000-4000-8000-00000000f001',
    code: 'personal-loan',
    versionId: '00000000-0000-4000-8000-00000000f101',
    version: 1,
    names: { en: 'Personal loan', fil: 'Personal na pautang', zh: '个人贷款', km: 'ប្រាក់កម្ចីផ្ទាល់ខ្លួន' },
    borrowerAmount: { ...defaultLoanProduct.borrowerAmount },
    termsMonths: [...defaultLoanProduct.termsMonths],
    defaultTermMonths: defaultLoanProduct.defaultTermMonths,
    monthlyRateBp: defaultLoanProduct.monthlyRateBp,
    fees: { ...defaultLoanProduct.fees, collection: 'deducted_from_payout' },
    lateChargeMonthlyBp: 0,
    graceDays: 3,
    limit: {
      basis: 'first_loan',
      repeatMaxAmount: null,
      loansNeeded: null,
      repeatMaxDaysLate: null,
      qualifyingLoans: 0,
    },
    ...overrides,
  };
}

/** GET /api/privacy/notice: a short notice in every language, version "2026-11-23". */
export function defaultPrivacyNotice(version = '2026-11-23'): PrivacyNoticeResponse {
  const section = (heading: string, body: string) => ({ heading, body });
  const text = (title: string, lang: string) => ({
    title,
    sections: Object.fromEntries(
      noticeSectionIds.map((id) => [
        id,
        section(`${lang} ${id}`, `${lang} ${id} text. DPO: dpo@example.com`),
      ]),
    ) as PrivacyNoticeResponse['texts']['en']['sections'],
  });
  return {
    version,
    dpoContact: 'dpo@example.com',
    retentionYears: 5,
    texts: {
      en: text('Privacy notice', 'en'),
      zh: text('隐私声明', 'zh'),
      km: text('សេចក្តីជូនដំណឹងអំពីឯកជនភាព', 'km'),
      fil: text('Abiso sa privacy', 'fil'),
    },
  };
}

/**
 * Replaces fetch with a table of `METHOD /path` → response. Unlisted requests fail the test loudly.
 * GET /api/settings, GET /api/products and GET /api/privacy/notice answer with the defaults unless the table
 * says otherwise.
 * Returns the mock so tests can inspect the calls.
 */
export function mockApi(tableHandlers: MockTable) {
  const handlers: Record<string, Handler> = {
    'GET /api/settings': { body: defaultSettings() },
    'GET /api/products': { body: { items: [defaultOfferedProduct()] } },
    // The wallet also reads the borrower's signed terms (docs/decisions/018): none unless a test says so.
    'GET /api/wallet/terms': { body: { signed: null, proposed: null, accepted: [] } },
    'GET /api/privacy/notice': { body: defaultPrivacyNotice() },
    ...tableHandlers,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected request: ${key}`);
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const result = typeof handler === 'function' ? await handler({ body, headers }) : handler;
    return new Response(result.body === undefined ? null : JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * The requests a test sent with `method` (POST unless told), in order, each with its JSON body parsed
 * (`{}` when it has none), so a test can assert exactly what was written and that nothing else was.
 */
export function sentRequests(fetchMock: ReturnType<typeof mockApi>, method = 'POST') {
  return fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === method)
    .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init?.body ?? '{}')) }));
}

/** A borrower's Account page with nothing on it yet: no credit score, profile or loan. */
export function emptyAccount(): AccountResponse {
  return { supportEmail: 'support@example.com', creditScore: null, profile: null, loan: null, loans: [] };
}

export function makeUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    username: null,
    phone: '09171234567',
    role: 'borrower',
    status: 'active',
    mustChangePassword: false,
    privacyConsentRequired: false,
    language: 'en',
    avatar: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    lastLoginAt: null,
    ...overrides,
  };
}

export const signedOutMe: MockResponse<MeResponse> = { body: { user: null, csrfToken: null } };

export function signedInMe(user: UserDto): MockResponse<MeResponse> {
  return { body: { user, csrfToken: 'csrf-test-token' } };
}

export function errorBody(
  code: string,
  message: string,
  extra: { fields?: object; params?: object } = {},
): ErrorBody {
  return {
    error: { code, message, fields: extra.fields ?? {}, ...(extra.params ? { params: extra.params } : {}) },
  };
}
