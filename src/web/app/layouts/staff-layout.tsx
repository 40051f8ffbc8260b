import { AppShell, Box, Burger, Group, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/brand';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle';
import { LanguageSwitch } from '../../components/language-switch';
import { LogoutButton } from '../../components/logout-button';
import { usePendingCount } from '../../features/staff-events/api/pending-count';
import { PendingBellLink, PendingIndicator } from '../../features/staff-events/components/pending-bell';
import { useCurrentUser } from '../../lib/session';
import { isPathUnder } from '../navigation';
import { staffNavItemsFor } from '../staff-navigation';
import { StaffIdentity } from './staff-identity';

/**
 * The back office: a header, a sidebar (a burger on phones) and the page. The sidebar shows who is signed
 * in (avatar picker, username, role) and the live pending count with its bell (SPEC §2.7).
 */
export function StaffLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = staffNavItemsFor(user.role);
  const pendingCount = usePendingCount();

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? t('common.closeNavigation') : t('common.openNavigation')}
            />
            <Brand size={28} />
          </Group>
          <Group gap={6} wrap="nowrap">
            <Box hiddenFrom="sm">
              <PendingBellLink count={pendingCount} />
            </Box>
            <LanguageSwitch />
            <ColorSchemeToggle />
            <LogoutButton />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="md" aria-label={t('common.mainNavigation')}>
        <AppShell.Section>
          <Group mb="md">
            <StaffIdentity user={user} onNavigate={close} />
          </Group>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          {items.map((item) => {
            const Icon = item.icon;
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={t(item.label)}
                leftSection={<Icon size={20} stroke={1.7} />}
                rightSection={item.to === '/admin/pending' ? <PendingIndicator count={pendingCount} /> : null}
                active={isPathUnder(pathname, item.to)}
                aria-current={isPathUnder(pathname, item.to) ? 'page' : undefined}
                onClick={close}
                variant="light"
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            );
          })}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
