import { ATTENDED_FOR_MS } from '../../domain/session-activity';

/** What the reader does that says they are at the screen. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * When the reader last used the page: a key, tap, click or scroll, or coming back to the tab. Listened for
 * in the capture phase, before the app's own handlers (and before TanStack Query re-reads on return), so
 * the requests a reader's action sets off count as theirs.
 */
export function watchActivity(target: Window = window, now: () => number = () => performance.now()) {
  let lastInputAt = now();
  const seen = () => {
    lastInputAt = now();
  };
  const returned = () => {
    if (target.document.visibilityState === 'visible') seen();
  };
  for (const type of INPUT_EVENTS) target.addEventListener(type, seen, { capture: true, passive: true });
  target.addEventListener('focus', seen, { capture: true });
  target.document.addEventListener('visibilitychange', returned, { capture: true });
  return {
    /** True when nobody has used the page for `ATTENDED_FOR_MS`: a request now is the app's own. */
    unattended: () => now() - lastInputAt > ATTENDED_FOR_MS,
    stop: () => {
      for (const type of INPUT_EVENTS) target.removeEventListener(type, seen, { capture: true });
      target.removeEventListener('focus', seen, { capture: true });
      target.document.removeEventListener('visibilitychange', returned, { capture: true });
    },
  };
}

let watch: ReturnType<typeof watchActivity> | undefined;

/**
 * Whether a request made now is one nobody asked for (docs/decisions/073). The watch starts with the first
 * request, at the page's start: opening the page is the reader's act.
 */
export function requestIsUnattended(): boolean {
  if (typeof window === 'undefined') return false;
  watch ??= watchActivity();
  return watch.unattended();
}
