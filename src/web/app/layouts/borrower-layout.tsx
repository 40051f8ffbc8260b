import { Container, Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle';
import { LanguageSwitch } from '../../components/language-switch';
import { LogoutButton } from '../../components/logout-button';
import { usePageTitle } from '../../lib/use-page-title';
import { borrowerNavItems, borrowerTitleKey, isPathUnder } from '../navigation';
import classes from './borrower-layout.module.css';

/** Borrower pages: mobile-first, a header with the page title and a bottom navigation bar. */
export function BorrowerLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const title = t(borrowerTitleKey(pathname));
  usePageTitle(title);
  return (
    <div className={classes.root}>
      <header className={classes.header}>
        <Container size="sm" px="md" className={classes.headerInner}>
          <Group gap="xs" wrap="nowrap" miw={0}>
            <img src="/favicon.svg" width={26} height={26} alt="" />
            <Title order={1} className={classes.title}>
              {title}
            </Title>
          </Group>
          <Group gap={6} wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
            <LogoutButton />
          </Group>
        </Container>
      </header>
      <main className={classes.main}>
        <Container size="sm" px="md" py="md">
          <Outlet />
        </Container>
      </main>
      <nav className={classes.bottomNav} aria-label={t('common.mainNavigation')}>
        <div className={classes.bottomNavInner}>
          {borrowerNavItems.map((item) => {
            const Icon = item.icon;
            const active = isPathUnder(pathname, item.match);
            return (
              <NavLink
                key={item.to}
                to={item.to}
                className={classes.navItem}
                data-active={active || undefined}
                aria-current={active ? 'page' : undefined}
              >
                <Icon size={24} stroke={active ? 2.2 : 1.7} aria-hidden="true" />
                <span className={classes.navLabel}>{t(item.label)}</span>
              </NavLink>
            );
          })}
        </div>
      </nav>
    </div>
  );
}
