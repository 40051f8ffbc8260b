import { Text } from '@mantine/core';
import classes from './account.module.css';

export type InfoRow = readonly [label: string, value: string | number | null | undefined];

/** Label/value pairs as a description list; a missing value shows "-" (SPEC §2.6). */
export function InfoList(props: { rows: readonly InfoRow[] }) {
  return (
    <dl className={classes.list}>
      {props.rows.map(([label, value]) => {
        const missing = value === null || value === undefined || value === '';
        return (
          <div key={label} className={classes.row}>
            <Text component="dt" size="sm" c="dimmed" className={classes.term}>
              {label}
            </Text>
            <Text
              component="dd"
              size="sm"
              fw={500}
              className={classes.value}
              c={missing ? 'dimmed' : undefined}
            >
              {missing ? '-' : value}
            </Text>
          </div>
        );
      })}
    </dl>
  );
}
