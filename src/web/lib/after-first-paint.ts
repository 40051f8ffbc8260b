import { startTransition, useEffect, useState } from 'react';

/**
 * False for a component's first render, true once that render has been drawn. For what lies below a page's
 * first screen: React commits a render in one task it cannot split, so on a phone's slow CPU the first
 * commit holds only what the reader sees first, and the rest follows in a task of its own (as a transition).
 * Only for content below everything that shows at once, which then moves nothing that is on screen.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setAfter(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return after;
}
