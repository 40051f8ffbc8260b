import type { UseQueryResult } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PrivacyNoticeResponse } from '../../domain/schemas/privacy';
import { defaultPrivacyNotice, renderWithProviders } from '../test/render';
import { LoadedPrivacyNotice } from './privacy-notice';

const query = (data?: PrivacyNoticeResponse) =>
  ({ data, isError: false, refetch: () => undefined }) as unknown as UseQueryResult<PrivacyNoticeResponse>;

describe('the privacy notice in its scrolling box', () => {
  it('takes the same height while it loads as once it is in, so nothing below it moves (issue #35)', async () => {
    const { unmount } = renderWithProviders(<LoadedPrivacyNotice notice={query()} maxHeight={360} />);
    const spinner = await screen.findByRole('status');
    expect(spinner.textContent).toBe('Loading...');
    const frame = spinner.closest<HTMLElement>('div[style*="height"]');
    expect(frame?.style.height).toBe('360px');
    unmount();

    renderWithProviders(<LoadedPrivacyNotice notice={query(defaultPrivacyNotice())} maxHeight={360} />);
    const box = await screen.findByRole('region');
    expect(box.style.height).toBe('360px');
    expect(box.style.border).toBe(frame?.style.border);
  });
});
