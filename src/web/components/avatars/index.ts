export { AvatarPicker, type AvatarPickerProps } from './avatar-picker';
export { type AvatarId, avatarIds, avatarNameKey, avatarSrc, isAvatarId } from './avatars';
export { UserAvatar } from './user-avatar';
