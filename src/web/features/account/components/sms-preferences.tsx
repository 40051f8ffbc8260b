import { Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { useErrorText } from '../../../lib/error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSetSmsPreferences, useSmsPreferences } from '../api/account-api';

/**
 * The borrower's one SMS choice (docs/decisions/041): the optional messages on or off. What is always sent
 * is said next to it, so nobody believes they turned off a message about their money.
 */
export function SmsPreferences() {
  const { t } = useTranslation();
  const preferences = useSmsPreferences();
  const save = useSetSmsPreferences();
  const errorText = useErrorText();

  if (preferences.isPending) return <InlineLoading />;
  if (preferences.isError)
    return <InlineLoadError error={preferences.error} onRetry={() => void preferences.refetch()} />;
  // Show the choice at once; the stored answer replaces it.
  const checked =
    save.isPending && save.variables ? save.variables.optionalSms : preferences.data.optionalSms;

  return (
    <Stack gap="sm">
      <Switch
        checked={checked}
        disabled={save.isPending}
        label={t('account.sms.optionalLabel')}
        onChange={(event) =>
          save.mutate(
            { optionalSms: event.currentTarget.checked },
            {
              onSuccess: () => notifySuccess(t('account.sms.saved')),
              onError: (error) => notifyError(errorText(error, 'NETWORK')),
            },
          )
        }
      />
      <Text size="sm" c="dimmed">
        {t('account.sms.always')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('account.sms.hours')}
      </Text>
    </Stack>
  );
}
