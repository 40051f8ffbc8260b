import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type PagerItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * The page buttons to show: always the first and last page, the current page with `siblings` on each
 * side, and an ellipsis for every gap of two or more pages (a gap of one shows that page instead).
 * `pagerItems(5, 10)` → [1, '…', 4, 5, 6, '…', 10].
 */
export function pagerItems(page: number, pageCount: number, siblings = 1): PagerItem[] {
  const last = Math.max(1, Math.floor(pageCount));
  const current = Math.min(Math.max(1, Math.floor(page)), last);
  // Enough room for every page: first + last + current ± siblings + two ellipses.
  if (last <= 5 + 2 * siblings) return Array.from({ length: last }, (_, i) => i + 1);
  let from = Math.max(2, current - siblings);
  let to = Math.min(last - 1, current + siblings);
  // Near an end, keep the same number of buttons so the pager does not jump in width.
  const span = 2 * siblings + 2;
  if (current - siblings <= 3) {
    from = 2;
    to = Math.max(to, 1 + span);
  }
  if (current + siblings >= last - 2) {
    to = last - 1;
    from = Math.min(from, last - span);
  }
  const items: PagerItem[] = [1];
  if (from > 2) items.push('ellipsis-start');
  for (let n = from; n <= to; n++) items.push(n);
  if (to < last - 1) items.push('ellipsis-end');
  items.push(last);
  return items;
}

export interface PagerProps {
  page: number;
  /** With `capped`, a lower bound: there are at least this many pages (docs/decisions/022). */
  pageCount: number;
  /** The number of rows as formatted by `useFormat().number`, shown next to the page ("Results: 1,000+"). */
  total?: string;
  /** The server stopped counting: `pageCount` and `total` are lower bounds, shown with a "+". */
  capped?: boolean;
  onChange: (page: number) => void;
  /** Greys the buttons out while a page loads. */
  disabled?: boolean;
  /**
   * Writes a page number (`useFormat().number`, the locale's digit grouping, like the total): exact totals
   * run to tens of thousands of pages ("Page 2,000 of 39,998").
   */
  formatNumber?: (n: number) => string;
}

/**
 * Prev / 1 … 4 5 6 … 10 / Next, and "Page X of Y" (SPEC §2.7). When the server stopped counting (`capped`)
 * it says "Page X of Y+": Y is a page that exists, and Next stays on past it.
 */
export function Pager({
  page,
  pageCount,
  total,
  capped = false,
  onChange,
  disabled = false,
  formatNumber = String,
}: PagerProps) {
  const { t } = useTranslation();
  const last = Math.max(1, pageCount);
  const current = Math.min(Math.max(1, page), last);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap" mt="md">
      <Group gap="md" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite">
          {t(capped ? 'backOffice.common.pageOfAtLeast' : 'backOffice.common.pageOf', {
            page: formatNumber(current),
            pageCount: formatNumber(last),
          })}
        </Text>
        {total === undefined ? null : (
          <Text size="sm" c="dimmed">
            {t('backOffice.common.results', { n: `${total}${capped ? '+' : ''}` })}
          </Text>
        )}
      </Group>
      <Group component="nav" gap={4} wrap="wrap" aria-label={t('backOffice.common.pagination')}>
        <Button
          variant="default"
          size="xs"
          disabled={disabled || current <= 1}
          onClick={() => onChange(current - 1)}
        >
          {t('backOffice.common.prev')}
        </Button>
        {pagerItems(current, last).map((item) =>
          typeof item === 'number' ? (
            <Button
              key={item}
              size="xs"
              miw={32}
              px={8}
              variant={item === current ? 'filled' : 'default'}
              aria-current={item === current ? 'page' : undefined}
              aria-label={t('backOffice.common.goToPage', { page: formatNumber(item) })}
              disabled={disabled && item !== current}
              onClick={() => item !== current && onChange(item)}
            >
              {formatNumber(item)}
            </Button>
          ) : (
            <Text key={item} size="sm" c="dimmed" px={4} aria-hidden>
              …
            </Text>
          ),
        )}
        <Button
          variant="default"
          size="xs"
          disabled={disabled || (current >= last && !capped)}
          onClick={() => onChange(current + 1)}
        >
          {t('backOffice.common.next')}
        </Button>
      </Group>
    </Group>
  );
}
