import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

/**
 * A number that counts up to `target` over `durationMs` (ease-out), one step per animation frame. With
 * "reduce motion" set it is the target at once.
 */
export function useCountUp(target: number, durationMs = 1200): number {
  const reduced = useReducedMotion(false, { getInitialValueInEffect: false });
  const [value, setValue] = useState(reduced ? target : 0);
  const current = useRef(value);

  useEffect(() => {
    const show = (next: number) => {
      current.current = next;
      setValue(next);
    };
    if (reduced || durationMs <= 0) {
      show(target);
      return;
    }
    const from = current.current;
    let frame = 0;
    let start: number | null = null;
    const tick = (now: number) => {
      start ??= now;
      const progress = Math.min(1, (now - start) / durationMs);
      const eased = 1 - (1 - progress) ** 3;
      show(Math.round(from + (target - from) * eased));
      if (progress < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [target, reduced, durationMs]);

  return value;
}
