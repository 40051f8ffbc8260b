import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HeaderIconButton, type HeaderIconLook } from './header-icon-button';

/** Switches light/dark; the choice is kept in localStorage, and until then the system preference applies. */
export function ColorSchemeToggle(props: HeaderIconLook) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  return (
    <HeaderIconButton
      {...props}
      label={t('common.toggleColorScheme')}
      icon={computed === 'dark' ? IconSun : IconMoon}
      onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
    />
  );
}
