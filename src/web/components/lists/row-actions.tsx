import { Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from './data-table';

interface RowAction {
  key: string;
  label: string;
  onClick: () => void;
  icon?: ReactNode;
  /** 'red' for what cannot be undone (reject, delete, reset a password). */
  color?: string;
}

/**
 * A row's actions as one "Actions" menu button: one narrow column whatever the number of actions or the
 * language, so every back-office list fits at 1280 px and the button stays on screen on a phone (the
 * column sticks to the table's right edge, see DataTable). Named for its row ("Actions for HL-…").
 */
function RowActions({ name, actions }: { name: string; actions: readonly RowAction[] }) {
  const { t } = useTranslation();
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" shadow="md" withinPortal>
      <Menu.Target>
        <Button
          size="compact-sm"
          variant="default"
          rightSection={<IconChevronDown size={14} />}
          aria-label={t('backOffice.rowActions.menuFor', { name })}
        >
          {t('backOffice.rowActions.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item key={action.key} leftSection={action.icon} color={action.color} onClick={action.onClick}>
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The "Action" column of a list: the row's menu, kept visible at the table's right edge. */
export function actionsColumn<T>(
  header: ReactNode,
  name: (row: T) => string,
  actions: (row: T) => readonly RowAction[],
): Column<T> {
  return {
    key: 'action',
    header,
    sticky: true,
    cell: (row) => <RowActions name={name(row)} actions={actions(row)} />,
  };
}
