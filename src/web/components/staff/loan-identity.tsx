import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Which loan a staff modal acts on: its number and the borrower's name, then anything else on that line. */
export function LoanIdentity(props: { loanNumber: string; fullName: string; children?: ReactNode }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text span ff="monospace" size="sm" fw={600}>
        {props.loanNumber}
      </Text>
      <Text span size="sm">
        {props.fullName}
      </Text>
      {props.children}
    </Group>
  );
}
