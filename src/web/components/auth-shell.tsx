import { Box, Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import background from '../assets/auth-background.svg?no-inline';
import classes from './auth-shell.module.css';
import { Brand } from './brand';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LanguageSwitch } from './language-switch';

/** Full-screen background picture, a dark overlay and a centred card (login, sign-up, password change). */
export function AuthShell(props: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Box className={classes.root} style={{ backgroundImage: `url("${background}")` }}>
      <div className={classes.overlay} aria-hidden="true" />
      <header className={classes.topBar}>
        <Brand c="white" />
        <Group gap="xs" wrap="nowrap">
          <LanguageSwitch variant="white" color="dark" />
          <ColorSchemeToggle variant="white" color="dark" />
          {props.actions}
        </Group>
      </header>
      <main className={classes.main}>
        <Paper className={classes.card} shadow="xl" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
          {props.children}
        </Paper>
      </main>
    </Box>
  );
}
