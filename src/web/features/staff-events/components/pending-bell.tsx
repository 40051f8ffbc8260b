import { ActionIcon, Badge, Group, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './pending-bell.module.css';

export const SHAKE_MS = 1000;

/** True for one second each time `count` goes up (not on the first value, not when it goes down). */
export function useRisingFlag(count: number | undefined, durationMs = SHAKE_MS): boolean {
  const [active, setActive] = useState(false);
  const previous = useRef<number | undefined>(undefined);
  useEffect(() => {
    const before = previous.current;
    previous.current = count;
    if (count === undefined || before === undefined || count <= before) return;
    setActive(true);
    const timer = setTimeout(() => setActive(false), durationMs);
    return () => clearTimeout(timer);
  }, [count, durationMs]);
  return active;
}

/** The bell and the live pending count, shown on the sidebar's Pending item. */
export function PendingIndicator({ count }: { count: number | undefined }) {
  const { t } = useTranslation();
  const shaking = useRisingFlag(count);
  return (
    <Group gap={6} wrap="nowrap" aria-live="polite">
      <span
        className={classes.bell}
        data-shaking={shaking || undefined}
        data-testid="pending-bell"
        aria-hidden
      >
        <IconBell size={18} stroke={1.8} />
      </span>
      {count === undefined ? null : (
        <Badge
          size="sm"
          circle={count < 10}
          color={count > 0 ? 'yellow.5' : 'gray'}
          variant={count > 0 ? 'filled' : 'light'}
          autoContrast
          data-testid="pending-count"
          aria-label={t('backOffice.layout.pendingCount', { count })}
        >
          {count > 999 ? '999+' : count}
        </Badge>
      )}
    </Group>
  );
}

/** Phones hide the sidebar behind the burger: the header then shows the bell and count, linking to Pending. */
export function PendingBellLink({ count }: { count: number | undefined }) {
  const { t } = useTranslation();
  const shaking = useRisingFlag(count);
  const label = count === undefined ? t('staff.nav.pending') : t('backOffice.layout.pendingCount', { count });
  return (
    <Indicator
      label={count !== undefined && count > 99 ? '99+' : count}
      disabled={!count}
      size={16}
      color="yellow.5"
      autoContrast
      offset={4}
    >
      <ActionIcon
        component={Link}
        to="/admin/pending"
        variant="default"
        size="lg"
        aria-label={label}
        title={label}
      >
        <span className={classes.bell} data-shaking={shaking || undefined}>
          <IconBell size={18} stroke={1.8} />
        </span>
      </ActionIcon>
    </Indicator>
  );
}
