/**
 * Runs `run` once, at the reader's first press of a key, tap or click on the page, and returns a cancel. What
 * is needed only once the reader acts (the toasts' chunk, a form's rules) is fetched then rather than on the
 * first load, which then settles sooner (issue #35).
 */
export function onFirstInput(run: () => void): () => void {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  const first = () => {
    stop();
    run();
  };
  const stop = () => {
    for (const type of events) window.removeEventListener(type, first, { capture: true });
  };
  for (const type of events) window.addEventListener(type, first, { capture: true, passive: true });
  return stop;
}
