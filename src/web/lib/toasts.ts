// Toasts and their container with all of Mantine's styles (Notification is not in the first-load set):
// one lazily loaded chunk, fetched after the first render (./notify.tsx).
import './styles/all';

export { Notifications, notifications } from '@mantine/notifications';
