import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { onFirstInput } from './first-input';

/**
 * Toasts and their container (app/providers.tsx) come in one chunk with their animation library, fetched
 * at the reader's first input (`loadToastsOnFirstInput`), or at the first toast if that comes sooner: no
 * page's first load downloads them. A toast raised before the container is in shows as soon as it is.
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

/**
 * Asks for the container at the reader's first press of a key, tap or click (a toast follows something they
 * did, and its request takes longer than the chunk), so no first load downloads it before the page has
 * settled (issue #35: it was ~11 KiB gzip of every first load). Returns a cancel.
 */
export function loadToastsOnFirstInput(): () => void {
  return onFirstInput(wantToasts);
}

/** Green toast; hides after 4 s like every toast. */
export function notifySuccess(message: string): void {
  void toasts().then((store) => store.show({ color: 'green', message, icon: <IconCheck size={18} /> }));
}

/** Red toast; hides after 4 s like every toast. */
export function notifyError(message: string): void {
  void toasts().then((store) => store.show({ color: 'red', message, icon: <IconAlertCircle size={18} /> }));
}
