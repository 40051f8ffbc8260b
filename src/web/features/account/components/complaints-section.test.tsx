import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MyComplaintDto } from '../../../../domain/schemas/complaints';
import { emptyAccount, errorBody, makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';

const account = emptyAccount();

const answered: MyComplaintDto = {
  id: 'c1',
  reference: 'C-2026-000007',
  category: 'fees_and_charges',
  text: 'Why was I charged a fee?',
  status: 'resolved',
  createdAt: '2026-11-20T02:00:00.000Z',
  resolvedAt: '2026-11-21T02:00:00.000Z',
  resolutionNote: 'The fee was refunded.',
  hasPicture: true,
  replies: [
    {
      id: 'r1',
      message: 'We are checking with finance.',
      createdAt: '2026-11-20T05:00:00.000Z',
      author: null,
    },
  ],
};

async function openComplaints() {
  await userEvent.click(await screen.findByRole('button', { name: 'Complaints' }));
  return screen.findByRole('form', { name: 'Complaints' });
}

describe('complaints on My Account', { timeout: 15_000 }, () => {
  it('shows each complaint with its reference, status, replies and resolution', async () => {
    mockApi({
      'GET /api/me': signedInMe(makeUser()),
      'GET /api/account': { body: account },
      'GET /api/complaints': { body: { complaints: [answered] } },
    });
    renderApp('/account');
    await openComplaints();
    const item = await screen.findByRole('article', { name: 'C-2026-000007' });
    expect(within(item).getByText('Resolved')).toBeTruthy();
    expect(within(item).getByText('Fees and charges', { exact: false })).toBeTruthy();
    expect(within(item).getByText('We are checking with finance.')).toBeTruthy();
    expect(within(item).getByText('The fee was refunded.')).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'View picture' }).getAttribute('href')).toBe(
      '/api/complaints/c1/picture',
    );
  });

  it('checks the form before sending, then files the complaint and shows its reference', async () => {
    let complaints: MyComplaintDto[] = [];
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(makeUser()),
      'GET /api/account': { body: account },
      'GET /api/complaints': () => ({ body: { complaints } }),
      'POST /api/complaints': () => {
        complaints = [
          {
            ...answered,
            id: 'c2',
            reference: 'C-2026-000008',
            status: 'received',
            replies: [],
            resolutionNote: null,
            resolvedAt: null,
            hasPicture: false,
          },
        ];
        return { status: 201, body: complaints[0]! };
      },
    });
    renderApp('/account');
    const form = await openComplaints();
    expect(await screen.findByText('You have not filed any complaints.')).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'File complaint' }));
    expect(await within(form).findByText('Please choose what your complaint is about.')).toBeTruthy();
    expect(within(form).getByText('Please describe your complaint.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.click(within(form).getByRole('textbox', { name: 'What is it about?' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Fees and charges' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Your complaint' }), 'Why a fee?');
    await userEvent.click(within(form).getByRole('button', { name: 'File complaint' }));
    expect(
      await screen.findByText('Complaint C-2026-000008 filed. We will reply here and by SMS.'),
    ).toBeTruthy();
    await screen.findByRole('article', { name: 'C-2026-000008' });
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    const body = sent[1]!.body as FormData;
    expect(body.get('category')).toBe('fees_and_charges');
    expect(body.get('text')).toBe('Why a fee?');
  });

  it('shows the server refusing a picture under the picture field', async () => {
    mockApi({
      'GET /api/me': signedInMe(makeUser()),
      'GET /api/account': { body: account },
      'GET /api/complaints': { body: { complaints: [] } },
      'POST /api/complaints': {
        status: 400,
        body: errorBody('IMAGE_INVALID', 'Pictures must be JPEG, PNG or WebP images', {
          fields: {
            picture: { code: 'IMAGE_INVALID', message: 'Pictures must be JPEG, PNG or WebP images' },
          },
        }),
      },
    });
    renderApp('/account');
    const form = await openComplaints();
    await userEvent.click(within(form).getByRole('textbox', { name: 'What is it about?' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payments' }));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Your complaint' }), 'Late posting');
    await userEvent.click(within(form).getByRole('button', { name: 'File complaint' }));
    await waitFor(() =>
      expect(within(form).getAllByText('Pictures must be JPEG, PNG or WebP images').length).toBeGreaterThan(
        0,
      ),
    );
  });
});
