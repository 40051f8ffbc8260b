import { useCallback, useEffect, useState } from 'react';
import { codePolicy } from '../../domain/codes';
import type { FormErrors } from './form-errors';

/** Whole seconds left until a deadline, ticking once a second; 0 when idle or done. */
export function useCountdown() {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= deadline) setDeadline(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setDeadline(current + seconds * 1000);
  }, []);

  const remaining = deadline === null ? 0 : Math.max(0, Math.ceil((deadline - now) / 1000));
  return { remaining, start };
}

/**
 * The wait before another verification code may be sent (sign-up, withdrawal): after a code went out, what
 * the server says (SPEC §5: 60 s); after a "too soon" refusal, the seconds it says are left.
 */
export function useResendCountdown() {
  const { remaining, start } = useCountdown();
  return {
    remaining,
    sent: (resendAfterSeconds: number | undefined) =>
      start(resendAfterSeconds || codePolicy.resendAfterSeconds),
    refused: (errors: FormErrors) => {
      const wait = errors.top?.code === 'CODE_RESEND_TOO_SOON' ? Number(errors.top.params?.n) : 0;
      if (wait > 0) start(wait);
    },
  };
}
