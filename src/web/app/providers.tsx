import '../lib/styles/first-load.css';
import './global.css';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useSyncExternalStore } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import i18n from '../lib/i18n';
import { loadToasts, loadToastsOnFirstInput, subscribeToToasts, toastsWanted } from '../lib/notify';
import { colorSchemeStorageKey, cssVariablesResolver, themeWithLabels } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: colorSchemeStorageKey });

/** Toasts hide after 4 s (SPEC §2.7, §6). */
export const toastAutoCloseMs = 4000;

// Where toasts show, with its animation library: fetched at the reader's first input, or at the first toast
// (lib/notify.tsx).
const Notifications = lazy(() => loadToasts().then((module) => ({ default: module.Notifications })));

function Toasts() {
  const wanted = useSyncExternalStore(subscribeToToasts, toastsWanted, toastsWanted);
  useEffect(() => loadToastsOnFirstInput(), []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications autoClose={toastAutoCloseMs} position="top-center" zIndex={1000} />
    </Suspense>
  );
}

export function AppProviders(props: {
  queryClient: QueryClient;
  children: ReactNode;
  env?: 'default' | 'test';
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedProvider env={props.env ?? 'default'}>
        <Toasts />
        <QueryClientProvider client={props.queryClient}>{props.children}</QueryClientProvider>
      </ThemedProvider>
    </I18nextProvider>
  );
}

/** Mantine with the theme's built-in button labels in the reader's language (they follow a switch). */
function ThemedProvider(props: { env: 'default' | 'test'; children: ReactNode }) {
  const { t } = useTranslation();
  const close = t('common.close');
  const theme = useMemo(() => themeWithLabels({ close }), [close]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      env={props.env}
    >
      {props.children}
    </MantineProvider>
  );
}
