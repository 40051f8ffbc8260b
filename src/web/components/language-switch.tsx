import { ActionIcon, type ActionIconProps } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { type ComponentType, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { LanguageMenuProps } from './language-menu';

let loaded: ComponentType<LanguageMenuProps> | undefined;
const loadMenu = () => import('./language-menu').then(({ LanguageMenu }) => (loaded = LanguageMenu));

/**
 * The language button. Its menu (Mantine's Menu brings popover positioning, transitions and a focus trap,
 * about a tenth of a borrower's first load) is fetched when the reader shows interest — pointer over the
 * button, focus on it, or a tap — and then takes the button's place, opened if it was pressed.
 */
export function LanguageSwitch(props: Pick<ActionIconProps, 'variant' | 'color' | 'size'>) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  const [Menu, setMenu] = useState(() => loaded);
  const [pressed, setPressed] = useState(false);
  if (Menu) {
    const hadFocus = button.current !== null && button.current === document.activeElement;
    return <Menu {...props} defaultOpened={pressed} autoFocus={hadFocus} />;
  }
  // A component is a function: handed to setState as is, React would call it as an updater.
  const prepare = () => void loadMenu().then((component) => setMenu(() => component));
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
