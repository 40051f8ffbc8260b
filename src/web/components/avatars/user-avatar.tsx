import { Avatar, type MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { avatarNameKey, avatarSrc } from './avatars';

/**
 * A user's preset avatar. `alt` defaults to the picture's name; pass "" where a name is shown beside it
 * so screen readers do not read it twice.
 */
export function UserAvatar(props: { avatar: number; size?: MantineSize | number; alt?: string }) {
  const { t } = useTranslation();
  return (
    <Avatar
      src={avatarSrc(props.avatar)}
      size={props.size ?? 'md'}
      radius="xl"
      alt={props.alt ?? t(avatarNameKey(props.avatar))}
    />
  );
}
