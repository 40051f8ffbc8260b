import { ActionIcon, type ActionIconProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ComponentProps } from 'react';

/** How a page shows its header icon buttons on its own background. */
export type HeaderIconLook = Pick<ActionIconProps, 'variant' | 'color' | 'size'>;

/**
 * An icon button of a page header (language, light/dark, log out): its name is read out and shown on hover.
 * Other props reach the button (a menu target passes its own).
 */
export function HeaderIconButton({
  label,
  icon: Glyph,
  variant,
  size,
  ...rest
}: ActionIconProps & Omit<ComponentProps<'button'>, keyof ActionIconProps> & { label: string; icon: Icon }) {
  return (
    <ActionIcon {...rest} variant={variant ?? 'default'} size={size ?? 'lg'} aria-label={label} title={label}>
      <Glyph size={18} stroke={1.8} />
    </ActionIcon>
  );
}
