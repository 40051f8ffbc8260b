import { Paper, Title, type TitleProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A card of the borrower's screens: a bordered section named by its h2, so screen readers list it as a
 * region with the heading's name.
 */
export function SectionCard(props: {
  titleId: string;
  title: ReactNode;
  /** The heading's size; default h4. */
  titleSize?: 'h4' | 'h5';
  /** The space under the heading. */
  titleMb?: TitleProps['mb'];
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="section"
      aria-labelledby={props.titleId}
      data-testid={props.testId}
    >
      <Title order={2} size={props.titleSize ?? 'h4'} id={props.titleId} mb={props.titleMb}>
        {props.title}
      </Title>
      {props.children}
    </Paper>
  );
}
