import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, stub } from '../../test/render';
import {
  makeListItem,
  officer,
  openApplicationList,
  pageOf,
  renderBackOffice,
  staffBase,
} from '../../test/staff';
import { buildListUrl } from './use-list';

const listUrls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls
    .map(([url]) => String(url))
    .filter((url) => url.startsWith('/api/staff/applications/pending'));

describe('list pages', { timeout: 20_000 }, () => {
  it('build query strings without empty values', () => {
    expect(buildListUrl('/api/x', { name: '', phone: '0917', page: 2 })).toBe('/api/x?phone=0917&page=2');
    expect(buildListUrl('/api/x', { name: ' Ana Reyes ' })).toBe('/api/x?name=Ana+Reyes');
    expect(buildListUrl('/api/x', {})).toBe('/api/x');
  });

  it('show "No results found." for an empty list', async () => {
    openApplicationList('pending', []);
    const empty = await screen.findByText('No results found.');
    // Outside the sideways-scrolling table: a cell as wide as the table put it off-screen on a phone.
    expect(empty.closest('table')).toBeNull();
    expect(screen.getByRole('table').querySelectorAll('tbody tr')).toHaveLength(0);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
  });

  it('Enter in a search box searches and goes back to page 1; the URL keeps the state', async () => {
    const third = makeListItem({ fullName: 'Third Page' });
    const found = makeListItem({ fullName: 'Ana Found' });
    const fetchMock = mockApi({
      ...staffBase(officer),
      ...stub('GET /api/staff/applications/pending?page=3', { body: pageOf([third], 3, 45) }),
      ...stub('GET /api/staff/applications/pending?name=ana&phone=0917', { body: pageOf([found], 1, 1) }),
      ...stub('GET /api/staff/applications/pending?name=ana&phone=0917&page=2', { body: pageOf([], 2, 1) }),
    });
    const { router } = renderBackOffice('/admin/pending?page=3');
    expect(await screen.findByText('Third Page')).toBeTruthy();
    expect(screen.getByText('Page 3 of 5')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Name'), 'ana');
    // Letters typed into the phone box are dropped.
    await userEvent.type(screen.getByLabelText('Phone'), '09x17{Enter}');
    expect(await screen.findByText('Ana Found')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(router.state.location.search).toBe('?name=ana&phone=0917');
    expect(listUrls(fetchMock)).toEqual([
      '/api/staff/applications/pending?page=3',
      '/api/staff/applications/pending?name=ana&phone=0917',
    ]);

    // Back restores page 3 and clears the boxes.
    await act(async () => {
      await router.navigate(-1);
    });
    expect(await screen.findByText('Third Page')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(''));
  });

  it.each([
    ['+63 917 123', '0917123'],
    ['0917-123', '0917123'],
    ['(0917) 123', '0917123'],
    ['+63 917 123 4567', '09171234567'],
    ['０９１７', '0917'],
  ])('a phone search written %j searches the stored digits %s (issue #32)', async (typed, digits) => {
    const found = makeListItem({ fullName: 'Ana Found' });
    const { router } = openApplicationList('pending', [], {
      [`GET /api/staff/applications/pending?phone=${digits}`]: { body: pageOf([found], 1, 1) },
    });
    const box = await screen.findByLabelText('Phone');
    expect(box.getAttribute('inputmode')).toBe('tel');
    await userEvent.type(box, `${typed}{Enter}`);
    expect(await screen.findByText('Ana Found')).toBeTruthy();
    expect(router.state.location.search).toBe(`?phone=${digits}`);
    expect((box as HTMLInputElement).value).toBe(digits);
  });

  it('shows a capped total honestly: "Page 1 of 100+" and "Results: 1,000+"', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/applications/pending': {
        body: pageOf([makeListItem({ fullName: 'Many' })], 1, 1000, true),
      },
    });
    renderBackOffice('/admin/pending');
    expect(await screen.findByText('Many')).toBeTruthy();
    expect(screen.getByText('Page 1 of 100+')).toBeTruthy();
    expect(screen.getByText('Results: 1,000+')).toBeTruthy();
  });

  it('the Search button searches too, and the Refresh button reloads the page', async () => {
    const { fetchMock, router } = openApplicationList('pending', [makeListItem({ fullName: 'Everyone' })], {
      ...stub('GET /api/staff/applications/pending?name=zed', { body: pageOf([]) }),
    });
    expect(await screen.findByText('Everyone')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listUrls(fetchMock)).toHaveLength(2));
    await userEvent.type(screen.getByLabelText('Name'), 'zed');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No results found.')).toBeTruthy();
    expect(router.state.location.search).toBe('?name=zed');
  });

  it('a page past the end (rows were removed) goes to the last page', async () => {
    mockApi({
      ...staffBase(officer),
      ...stub('GET /api/staff/applications/pending?page=9', { body: pageOf([], 9, 12) }),
      ...stub('GET /api/staff/applications/pending?page=2', {
        body: pageOf([makeListItem({ fullName: 'Last' })], 2, 12),
      }),
    });
    const { router } = renderBackOffice('/admin/pending?page=9');
    expect(await screen.findByText('Last')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
  });
});
