// Toasts and their container: one lazily loaded chunk, fetched at the first input or the first toast
// (./notify.tsx). Their styles are in the first load's stylesheet (./styles/first-load.css).
export { Notifications, notifications } from '@mantine/notifications';
