import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type ShownStatus, statusLook } from '../lib/status';

/**
 * A status as a filled pill with its translated name, in the one status colour map (lib/status.ts); text
 * colour is picked for contrast (dark on amber, white on the rest).
 */
export function StatusBadge(props: { status: ShownStatus } & Omit<BadgeProps, 'color'>) {
  const { t } = useTranslation();
  const { status, ...rest } = props;
  const look = statusLook(status);
  return (
    <Badge
      color={look.filled}
      variant="filled"
      autoContrast
      radius="sm"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
      {...rest}
    >
      {t(look.label)}
    </Badge>
  );
}
