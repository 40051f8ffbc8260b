import { Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle';
import { LanguageSwitch } from '../../components/language-switch';
import { LogoutButton } from '../../components/logout-button';
import { usePageTitle } from '../../lib/use-page-title';
import { borrowerNavItems, borrowerTitleKey, isPathUnder } from '../navigation';
import classes from './borrower-layout.module.css';

/**
 * Borrower pages: mobile-first, a header with the page title and a bottom navigation bar. From 900 px
 * the same navigation (one element, restyled by CSS) becomes a sidebar and the page gets a wider column.
 */
export function BorrowerLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const title = t(borrowerTitleKey(pathname));
  usePageTitle(title);
  return (
    <div className={classes.root}>
      <header className={classes.header}>
        <div className={classes.headerInner}>
          <Group gap="xs" wrap="nowrap" miw={0}>
            <img src="/favicon.svg" width={26} height={26} alt="" />
            <span className={classes.appName}>{t('common.appName')}</span>
            <Title order={1} className={classes.title}>
              {title}
            </Title>
          </Group>
          <Group gap={6} wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
            <LogoutButton />
          </Group>
        </div>
      </header>
      <div className={classes.body}>
        <nav className={classes.nav} aria-label={t('common.mainNavigation')}>
          <div className={classes.navInner}>
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
        <main className={classes.main}>
          <div className={classes.content}>
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
