import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ComponentType } from 'react';

/** One dashboard figure: its label, the value and an icon. */
export function StatCard(props: {
  label: string;
  value: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  color: string;
  testId: string;
}) {
  const Icon = props.icon;
  return (
    <Paper withBorder radius="md" p="md" data-testid={props.testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} miw={0}>
          <Text size="sm" c="dimmed" fw={500}>
            {props.label}
          </Text>
          <Text fw={700} fz={{ base: 'lg', sm: 'xl' }} style={{ overflowWrap: 'anywhere' }}>
            {props.value}
          </Text>
        </Stack>
        <ThemeIcon variant="light" color={props.color} size="lg" radius="md" aria-hidden>
          <Icon size={20} stroke={1.7} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}
