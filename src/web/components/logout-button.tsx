import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useErrorText } from '../lib/error-text';
import { notifyError } from '../lib/notify';
import { useLogout } from '../lib/session';
import { HeaderIconButton, type HeaderIconLook } from './header-icon-button';

/** Ends the server session, clears cached data and goes to /login. */
export function LogoutButton(props: { asButton?: boolean } & HeaderIconLook) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const logout = useLogout();
  const onClick = () =>
    logout.mutate(undefined, {
      onSuccess: () => navigate('/login', { replace: true }),
      onError: (error) => notifyError(errorText(error)),
    });

  if (props.asButton) {
    return (
      <Button
        variant="subtle"
        color="gray"
        leftSection={<IconLogout size={18} />}
        onClick={onClick}
        loading={logout.isPending}
      >
        {t('common.logOut')}
      </Button>
    );
  }
  return (
    <HeaderIconButton
      variant={props.variant}
      color={props.color}
      size={props.size}
      label={t('common.logOut')}
      icon={IconLogout}
      onClick={onClick}
      loading={logout.isPending}
    />
  );
}
