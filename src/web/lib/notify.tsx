import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';

/** Green toast; hides after 4 s like every toast. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, icon: <IconCheck size={18} /> });
}

/** Red toast; hides after 4 s like every toast. */
export function notifyError(message: string): void {
  notifications.show({ color: 'red', message, icon: <IconAlertCircle size={18} /> });
}
