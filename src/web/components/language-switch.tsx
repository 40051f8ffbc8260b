import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type LanguageMenuModule = typeof import('./language-menu');
let loaded: LanguageMenuModule | undefined;
const loadMenu = () => import('./language-menu').then((module) => (loaded = module));

/**
 * The language button. Its menu (Mantine's Menu brings popover positioning, transitions and a focus trap,
 * about a tenth of a borrower's first load) is fetched when the reader shows interest — pointer over the
 * button, focus on it, or a tap — and then takes the button's place, opened if it was pressed.
 */
export function LanguageSwitch(props: Pick<ActionIconProps, 'variant' | 'color' | 'size'>) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const [menu, setMenu] = useState(loaded);
  const [pressed, setPressed] = useState(false);
  if (menu) {
    const hadFocus = button.current !== null && button.current === document.activeElement;
    return <menu.LanguageMenu {...props} defaultOpened={pressed} autoFocus={hadFocus} />;
  }
  const prepare = () => void loadMenu().then(setMenu);
  return (
    <ActionIcon
      ref={button}
      variant={props.variant ?? 'default'}
      color={props.color}
      size={props.size ?? 'lg'}
      aria-label={t('common.language')}
      title={t('common.language')}
      aria-haspopup="menu"
      onPointerEnter={prepare}
      onFocus={prepare}
      onClick={() => {
        setPressed(true);
        prepare();
      }}
    >
      <IconLanguage size={18} stroke={1.8} />
    </ActionIcon>
  );
}
