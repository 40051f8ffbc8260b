import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title';

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
