export { AvatarPicker } from './avatar-picker';
export { UserAvatar } from './user-avatar';
