import '../lib/styles/all';
import { Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../lib/api';
import { currentLanguage, type Language, languages } from '../lib/i18n';
import { type Session, sessionQueryKey } from '../lib/session';
import { HeaderIconButton, type HeaderIconLook } from './header-icon-button';

export interface LanguageMenuProps extends HeaderIconLook {
  /** Open at once: the reader already pressed the button that this menu replaces. */
  defaultOpened?: boolean;
  /** Take the focus at once: the button this menu replaces had it. */
  autoFocus?: boolean;
}

/**
 * English / 中文 / ខ្មែរ / Filipino, each in its own language; the choice is kept in localStorage and, for a
 * signed-in user, on the account too: every SMS the server sends them is written in it (issue #36).
 */
export function LanguageMenu({ defaultOpened, autoFocus, ...props }: LanguageMenuProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const active = currentLanguage();
  const choose = (lng: Language) => {
    void i18n.changeLanguage(lng);
    // Read when chosen, not subscribed to: the menu must not ask for a session on pages without one.
    const signedIn = Boolean(queryClient.getQueryData<Session>(sessionQueryKey)?.user);
    if (!signedIn || lng === active) return;
    // The screen changes whatever the server answers; if it cannot be told now, the messages stay in the
    // language it knows until the next switch, which is no reason to stop the reader.
    apiFetch('/api/account/language', { method: 'POST', body: { language: lng } }).catch(() => {});
  };
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={160} defaultOpened={defaultOpened ?? false}>
      <Menu.Target>
        <HeaderIconButton {...props} label={t('common.language')} icon={IconLanguage} autoFocus={autoFocus} />
      </Menu.Target>
      <Menu.Dropdown>
        {languages.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng}
            onClick={() => choose(lng)}
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
