import { IconAlertCircle, IconCheck } from '@tabler/icons-react';

/**
 * Toasts and their container (app/providers.tsx) come in one chunk with their animation library, fetched
 * once the page has loaded and the browser is idle (`loadToastsWhenIdle`), or at the first toast if that
 * comes sooner: no page's first load waits for them. A toast raised before the container is in shows as
 * soon as it is.
 */
export const loadToasts = () => import('./toasts');
const toasts = () => {
  wantToasts();
  return loadToasts().then((module) => module.notifications);
};

let wanted = false;
const listeners = new Set<() => void>();

/** Mount the toasts' container (and fetch its chunk). */
function wantToasts() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: whether the container should be mounted yet. */
export const toastsWanted = () => wanted;
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks for the container once the page has loaded and the browser has a moment; returns a cancel. */
export function loadToastsWhenIdle(): () => void {
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (typeof window.requestIdleCallback === 'function')
      idle = window.requestIdleCallback(wantToasts, { timeout: 5000 });
    else timer = setTimeout(wantToasts, 2000);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    if (idle !== undefined) window.cancelIdleCallback(idle);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Green toast; hides after 4 s like every toast. */
export function notifySuccess(message: string): void {
  void toasts().then((store) => store.show({ color: 'green', message, icon: <IconCheck size={18} /> }));
}

/** Red toast; hides after 4 s like every toast. */
export function notifyError(message: string): void {
  void toasts().then((store) => store.show({ color: 'red', message, icon: <IconAlertCircle size={18} /> }));
}
