import '../lib/styles/all';
import { ActionIcon, type ActionIconProps, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, languages } from '../lib/i18n';

export interface LanguageMenuProps extends Pick<ActionIconProps, 'variant' | 'color' | 'size'> {
  /** Open at once: the reader already pressed the button that this menu replaces. */
  defaultOpened?: boolean;
  /** Take the focus at once: the button this menu replaces had it. */
  autoFocus?: boolean;
}

/** English / 中文 / ខ្មែរ / Filipino, each in its own language; the choice is kept in localStorage. */
export function LanguageMenu({ defaultOpened, autoFocus, ...props }: LanguageMenuProps) {
  const { t, i18n } = useTranslation();
  const active = currentLanguage();
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={160} defaultOpened={defaultOpened ?? false}>
      <Menu.Target>
        <ActionIcon
          variant={props.variant ?? 'default'}
          color={props.color}
          size={props.size ?? 'lg'}
          aria-label={t('common.language')}
          title={t('common.language')}
          autoFocus={autoFocus}
        >
          <IconLanguage size={18} stroke={1.8} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {languages.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng}
            onClick={() => void i18n.changeLanguage(lng)}
            rightSection={lng === active ? <IconCheck size={16} /> : null}
            aria-current={lng === active ? 'true' : undefined}
          >
            {t(`languages.${lng}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
