import { Button, Group, Paper, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { createUserSchema } from '../../../../domain/schemas/staff';
import { FormError } from '../../../components/modals';
import { useErrorText } from '../../../lib/error-text';
import { notifySuccess } from '../../../lib/notify';
import { type NewUser, useCreateUser } from '../api/users';
import { staffRoleOptions, TemporaryPasswordInput, UserPhoneInput } from './user-fields';

const empty: NewUser = { username: '', password: '', phone: '', role: '' };

/**
 * The first problem with a new user, checked by the domain schema the server uses: "Please fill all
 * fields." when anything is missing, else the first rule broken (username, password length, phone).
 */
export function firstUserProblem(input: NewUser): string | null {
  const parsed = createUserSchema.safeParse(input);
  if (parsed.success) return null;
  const codes = parsed.error.issues.map((issue) => issue.message);
  return codes.includes('USER_FIELDS_REQUIRED') ? 'USER_FIELDS_REQUIRED' : (codes[0] ?? 'VALIDATION_FAILED');
}

/** "Add User": username, temporary password, phone and role (SPEC §2.7). */
export function AddUserForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const create = useCreateUser();
  const [values, setValues] = useState<NewUser>(empty);
  const [error, setError] = useState<string | null>(null);
  const set = (key: keyof NewUser, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (error) setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = firstUserProblem(values);
    if (problem) {
      setError(t(`errors.${problem}`));
      return;
    }
    setError(null);
    try {
      const user = await create.mutateAsync({
        ...values,
        username: values.username.trim(),
        phone: values.phone.trim(),
      });
      notifySuccess(t('users.add.toast', { username: user.username ?? values.username }));
      setValues(empty);
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} mb="md">
      <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="add-user-title">
        <Group justify="space-between" align="baseline" gap="xs" mb="sm" wrap="wrap">
          <Title order={2} size="h4" id="add-user-title">
            {t('users.add.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('users.add.help')}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="sm">
          <TextInput
            label={t('users.fields.username')}
            withAsterisk
            autoComplete="off"
            maxLength={limits.username}
            value={values.username}
            onChange={(event) => set('username', event.currentTarget.value)}
          />
          <TemporaryPasswordInput
            label={t('users.fields.temporaryPassword')}
            value={values.password}
            onChange={(event) => set('password', event.currentTarget.value)}
          />
          <UserPhoneInput
            value={values.phone}
            onChange={(event) => set('phone', event.currentTarget.value)}
          />
          <Select
            label={t('users.fields.role')}
            withAsterisk
            placeholder={t('users.fields.rolePlaceholder')}
            data={staffRoleOptions(t)}
            value={values.role || null}
            onChange={(value) => set('role', value ?? '')}
            allowDeselect={false}
          />
        </SimpleGrid>
        <FormError message={error} mt="sm" />
        <Group justify="flex-end" mt="sm">
          <Button type="submit" loading={create.isPending} leftSection={<IconUserPlus size={16} />}>
            {t('users.add.submit')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
