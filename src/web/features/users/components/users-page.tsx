import { Badge, Group, Stack, Text } from '@mantine/core';
import {
  IconKey,
  IconLockOpen,
  IconPencil,
  IconRestore,
  IconShieldOff,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeCell } from '../../../components/date-time-cell';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { actionsColumn } from '../../../components/lists/row-actions';
import type { SearchField } from '../../../components/lists/search-bar';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session';
import { backOfficeKeys } from '../../../lib/staff/keys';
import type { StaffUser } from '../api/users';
import { AddUserForm } from './add-user-form';
import { DeleteUserModal } from './delete-user-modal';
import { ReactivateUserModal } from './reactivate-user-modal';
import { ResetSecondFactorModal } from './reset-second-factor-modal';
import { ResetUserPasswordModal } from './reset-user-password-modal';
import { UnlockUserModal } from './unlock-user-modal';
import { UpdateUserModal } from './update-user-modal';

type Dialog = 'update' | 'reset' | 'delete' | 'reactivate' | 'unlock' | 'resetSecondFactor';

/** User Management (SPEC §2.7, admin only): add, search by phone, update, reset password, delete, reactivate. */
export function UsersPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const me = useCurrentUser();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [row, setRow] = useState<StaffUser | null>(null);
  const open = (kind: Dialog, user: StaffUser) => {
    setRow(user);
    setDialog(kind);
  };
  const close = () => setDialog(null);

  const col = (key: string) => t(`users.columns.${key}`);
  const search: SearchField[] = [
    {
      key: 'phone',
      label: t('backOffice.search.phone'),
      placeholder: t('backOffice.search.phonePlaceholder'),
      type: 'digits',
    },
  ];

  const columns: Column<StaffUser>[] = [
    {
      key: 'username',
      header: col('username'),
      cell: (user) => (
        <Group gap={6} wrap="nowrap">
          <Text span size="sm" fw={500}>
            {fmt.text(user.username)}
          </Text>
          {user.id === me.id ? (
            <Badge size="xs" variant="light">
              {t('users.you')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { key: 'phone', header: col('phone'), cell: (user) => fmt.text(user.phone) },
    { key: 'role', header: col('role'), cell: (user) => t(`roles.${user.role}`) },
    {
      key: 'status',
      header: col('status'),
      cell: (user) => (
        <Stack gap={2} align="flex-start">
          <StatusBadge status={user.status} />
          {user.mustChangePassword && user.status === 'active' ? (
            <Text size="xs" c="dimmed">
              {t('users.mustChangePassword')}
            </Text>
          ) : null}
          {user.lockedUntil ? (
            <Text size="xs" c="red.8">
              {t('users.lockedUntil', { time: fmt.dateTime(user.lockedUntil) })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { key: 'createdAt', header: col('createdAt'), cell: (user) => <DateTimeCell iso={user.createdAt} /> },
    {
      key: 'lastLoginAt',
      header: col('lastLoginAt'),
      cell: (user) => <DateTimeCell iso={user.lastLoginAt} />,
    },
    actionsColumn<StaffUser>(
      col('actions'),
      (user) => user.username ?? user.phone ?? user.id,
      (user) => [
        {
          key: 'update',
          label: t('users.actions.update'),
          icon: <IconPencil size={16} />,
          onClick: () => open('update', user),
        },
        ...(user.status === 'active'
          ? [
              {
                key: 'reset',
                label: t('users.actions.resetPassword'),
                icon: <IconKey size={16} />,
                onClick: () => open('reset', user),
              },
            ]
          : []),
        ...(user.lockedUntil
          ? [
              {
                key: 'unlock',
                label: t('users.actions.unlock'),
                icon: <IconLockOpen size={16} />,
                onClick: () => open('unlock', user),
              },
            ]
          : []),
        ...(user.status === 'active' && user.role !== 'borrower'
          ? [
              {
                key: 'resetSecondFactor',
                label: t('users.actions.resetSecondFactor'),
                icon: <IconShieldOff size={16} />,
                onClick: () => open('resetSecondFactor', user),
              },
            ]
          : []),
        ...(user.id !== me.id && user.status === 'active'
          ? [
              {
                key: 'delete',
                label: t('users.actions.delete'),
                icon: <IconTrash size={16} />,
                color: 'red',
                onClick: () => open('delete', user),
              },
            ]
          : []),
        ...(user.status === 'deactivated'
          ? [
              {
                key: 'reactivate',
                label: t('users.actions.reactivate'),
                icon: <IconRestore size={16} />,
                onClick: () => open('reactivate', user),
              },
            ]
          : []),
      ],
    ),
  ];

  return (
    <>
      <ListPage<StaffUser>
        title={t('users.title')}
        queryKey={backOfficeKeys.list('users')}
        endpoint="/api/admin/users"
        search={search}
        columns={columns}
        rowKey={(user) => user.id}
        tableMinWidth={900}
      >
        <AddUserForm />
      </ListPage>
      <UpdateUserModal user={row} opened={dialog === 'update'} onClose={close} isSelf={row?.id === me.id} />
      <ResetUserPasswordModal user={row} opened={dialog === 'reset'} onClose={close} />
      <DeleteUserModal user={row} opened={dialog === 'delete'} onClose={close} />
      <ReactivateUserModal user={row} opened={dialog === 'reactivate'} onClose={close} />
      <UnlockUserModal user={row} opened={dialog === 'unlock'} onClose={close} />
      <ResetSecondFactorModal user={row} opened={dialog === 'resetSecondFactor'} onClose={close} />
    </>
  );
}
