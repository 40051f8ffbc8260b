import { screen } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { InlineLoading } from './load-state';

/** axe-core's ARIA rules on what is on the page now (jsdom draws nothing, so no colour or layout rules). */
async function ariaFindings(): Promise<string[]> {
  const result = await axe.run(document.body, {
    runOnly: { type: 'rule', values: ['aria-prohibited-attr', 'aria-allowed-attr', 'aria-allowed-role'] },
    resultTypes: ['violations'],
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('a spinner while a page part loads', () => {
  it('announces what loads as text in its live region, with no name on the spinner ARIA refuses', async () => {
    renderWithProviders(<InlineLoading label="Loading your application..." />);
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('Loading your application...');
    expect(await ariaFindings()).toEqual([]);
  });
});
