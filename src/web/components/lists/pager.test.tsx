import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pager, pagerItems } from './pager';

describe('pagerItems', () => {
  it('lists every page when they fit', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('puts ellipses around the current page when there are many', () => {
    expect(pagerItems(5, 10)).toEqual([1, 'ellipsis-start', 4, 5, 6, 'ellipsis-end', 10]);
    expect(pagerItems(50, 100)).toEqual([1, 'ellipsis-start', 49, 50, 51, 'ellipsis-end', 100]);
  });

  it('keeps the same width near either end and never hides a single page behind "…"', () => {
    expect(pagerItems(1, 10)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 10]);
    expect(pagerItems(4, 10)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 10]);
    expect(pagerItems(7, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 9, 10]);
    expect(pagerItems(10, 10)).toEqual([1, 'ellipsis-start', 6, 7, 8, 9, 10]);
  });

  it('clamps nonsense input', () => {
    expect(pagerItems(0, 0)).toEqual([1]);
    expect(pagerItems(99, 3)).toEqual([1, 2, 3]);
  });

  it('always includes the first, last and current page, in order, without duplicates', () => {
    for (let count = 1; count <= 30; count++) {
      for (let page = 1; page <= count; page++) {
        const items = pagerItems(page, count);
        const numbers = items.filter((item): item is number => typeof item === 'number');
        expect(numbers).toContain(1);
        expect(numbers).toContain(count);
        expect(numbers).toContain(page);
        expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
        expect(items.length).toBeLessThanOrEqual(7);
      }
    }
  });
});

function renderPager(
  page: number,
  pageCount: number,
  more: { total?: string; capped?: boolean; formatNumber?: (n: number) => string } = {},
) {
  const onChange = vi.fn();
  render(
    <MantineProvider env="test">
      <Pager page={page} pageCount={pageCount} onChange={onChange} {...more} />
    </MantineProvider>,
  );
  return onChange;
}

describe('Pager', () => {
  it('says "Page 2 of 5" and moves with Prev, Next and the numbers', async () => {
    const onChange = renderPager(2, 5);
    expect(screen.getByText('Page 2 of 5')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to page 2' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 5' }));
    expect(onChange.mock.calls).toEqual([[1], [3], [5]]);
  });

  it('shows ellipses for many pages and disables Prev on the first, Next on the last', () => {
    renderPager(1, 12);
    expect(screen.getByText('Page 1 of 12')).toBeTruthy();
    expect(screen.getAllByText('…')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Prev' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows two ellipses in the middle and disables Next on the last page', () => {
    renderPager(6, 12);
    expect(screen.getAllByText('…')).toHaveLength(2);
  });

  it('disables Next on the last page', () => {
    renderPager(12, 12);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it('says "Page 1 of 100+" and "Results: 1,000+" when the server stopped counting, and Next stays on', async () => {
    const onChange = renderPager(100, 100, { total: '1,000', capped: true });
    expect(screen.getByText('Page 100 of 100+')).toBeTruthy();
    expect(screen.getByText('Results: 1,000+')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange.mock.calls).toEqual([[101]]);
  });

  it('shows an exact total without a "+"', () => {
    renderPager(3, 5, { total: '45' });
    expect(screen.getByText('Page 3 of 5')).toBeTruthy();
    expect(screen.getByText('Results: 45')).toBeTruthy();
  });

  it('writes page numbers as the list formats numbers', () => {
    renderPager(2000, 39_998, { total: '399,977', formatNumber: (n) => n.toLocaleString('en') });
    expect(screen.getByText('Page 2,000 of 39,998')).toBeTruthy();
    expect(screen.getByRole('button', { name: /39,998/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /1,999/ })).toBeTruthy();
  });
});
