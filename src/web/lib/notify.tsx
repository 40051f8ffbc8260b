import { IconAlertCircle, IconCheck } from '@tabler/icons-react';

/**
 * Toasts and their container (app/providers.tsx) come in one chunk fetched after the first render: no
 * page's first load waits for them. A toast raised meanwhile shows as soon as the chunk is in.
 */
export const loadToasts = () => import('@mantine/notifications');
const toasts = () => loadToasts().then((module) => module.notifications);

/** Green toast; hides after 4 s like every toast. */
export function notifySuccess(message: string): void {
  void toasts().then((store) => store.show({ color: 'green', message, icon: <IconCheck size={18} /> }));
}

/** Red toast; hides after 4 s like every toast. */
export function notifyError(message: string): void {
  void toasts().then((store) => store.show({ color: 'red', message, icon: <IconAlertCircle size={18} /> }));
}
