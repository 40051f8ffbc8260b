import {
  ActionIcon,
  type ActionIconProps,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Switches light/dark; the choice is kept in localStorage, and until then the system preference applies. */
export function ColorSchemeToggle(props: Pick<ActionIconProps, 'variant' | 'color' | 'size'>) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const Icon = computed === 'dark' ? IconSun : IconMoon;
  return (
    <ActionIcon
      variant={props.variant ?? 'default'}
      color={props.color}
      size={props.size ?? 'lg'}
      aria-label={t('common.toggleColorScheme')}
      title={t('common.toggleColorScheme')}
      onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
    >
      <Icon size={18} stroke={1.8} />
    </ActionIcon>
  );
}
