import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../lib/use-page-title';

/** The heading of a card on the AuthShell: its h1 (also the tab title) and a line under it. */
export function AuthCardHeader(props: { title: string; subtitle?: string }) {
  usePageTitle(props.title);
  return (
    <Stack gap={4} mb="lg" align="center" ta="center">
      <Title order={1} fz={{ base: 26, xs: 28 }}>
        {props.title}
      </Title>
      {props.subtitle ? (
        <Text c="dimmed" size="sm">
          {props.subtitle}
        </Text>
      ) : null}
    </Stack>
  );
}
