import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAfterFirstPaint } from './after-first-paint';

function Probe() {
  return <p>{useAfterFirstPaint() ? 'after' : 'first'}</p>;
}

describe('useAfterFirstPaint', () => {
  it('is false on the first render and true once a frame has been drawn', async () => {
    render(<Probe />);
    expect(screen.getByText('first')).toBeTruthy();
    await act(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)));
    });
    expect(screen.getByText('after')).toBeTruthy();
  });
});
