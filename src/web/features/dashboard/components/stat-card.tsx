import { Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ComponentType } from 'react';

/**
 * One dashboard figure: its label, the value and an icon. While the value loads (`null`) a placeholder
 * keeps its line, so the card has its final height and nothing below it moves when the figure arrives.
 */
export function StatCard(props: {
  label: string;
  value: string | null;
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
          <Text
            component="div"
            fw={700}
            fz={{ base: 'lg', sm: 'xl' }}
            pos="relative"
            style={{ overflowWrap: 'anywhere' }}
            data-testid={`${props.testId}-value`}
            aria-busy={props.value === null ? true : undefined}
          >
            {props.value ?? (
              <>
                {/* A zero-width space gives the line its height; the skeleton covers it. */}
                {'\u200b'}
                <Skeleton pos="absolute" top="15%" left={0} h="70%" w={96} radius="sm" />
              </>
            )}
          </Text>
        </Stack>
        <ThemeIcon variant="light" color={props.color} size="lg" radius="md" aria-hidden>
          <Icon size={20} stroke={1.7} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}
