import { Anchor, Badge, Divider, Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserDto } from '../../../domain/schemas/user';
import { AvatarPicker, UserAvatar } from '../../components/avatars';
import { useErrorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSetAvatar } from '../../lib/session';

/** The signed-in staff member in the sidebar: avatar (click to choose one of five), username and role. */
export function StaffIdentity({ user, onNavigate }: { user: UserDto; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const save = useSetAvatar();
  const [opened, { toggle, close }] = useDisclosure(false);
  const choose = (avatar: number) =>
    save.mutate(avatar, {
      onSuccess: () => {
        notifySuccess(t('backOffice.layout.avatarSaved'));
        close();
      },
      onError: (error) => notifyError(errorText(error)),
    });

  return (
    <Group gap="sm" wrap="nowrap" aria-label={t('common.signedInAs')} role="group">
      <Popover
        opened={opened}
        onChange={(next) => !next && close()}
        position="bottom-start"
        shadow="md"
        withArrow
      >
        <Popover.Target>
          <UnstyledButton
            onClick={toggle}
            aria-label={t('backOffice.layout.changeAvatar')}
            title={t('backOffice.layout.changeAvatar')}
            style={{ borderRadius: '50%' }}
          >
            <UserAvatar avatar={user.avatar} size={40} alt="" />
          </UnstyledButton>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {t('backOffice.layout.changeAvatar')}
            </Text>
            <AvatarPicker value={user.avatar} onChange={choose} disabled={save.isPending} size={40} />
            <Divider />
            <Anchor
              component={Link}
              to="/admin/security"
              onClick={() => {
                close();
                onNavigate?.();
              }}
              size="sm"
              fw={600}
            >
              <Group gap={6} wrap="nowrap">
                <IconShieldLock size={18} aria-hidden="true" />
                {t('security.menuLink')}
              </Group>
            </Anchor>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Stack gap={2} miw={0}>
        <Text fw={600} size="sm" truncate="end">
          {user.username ?? user.phone}
        </Text>
        <Badge variant="light" size="sm" w="fit-content">
          {t(`roles.${user.role}`)}
        </Badge>
      </Stack>
    </Group>
  );
}
