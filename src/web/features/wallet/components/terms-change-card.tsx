import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileAlert } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TermsChangeDto } from '../../../../domain/schemas/terms';
import { CodeField } from '../../../components/code-field';
import { FormError } from '../../../components/modals';
import { SafetyNotice } from '../../../components/safety-notice';
import { useErrorText } from '../../../lib/error-text';
import { formErrorsFromError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useResendCountdown } from '../../../lib/use-countdown';
import { useAnswerTermsChange, useSendTermsCode } from '../api/terms-api';
import { TermsFigures } from './terms-figures';

/**
 * New terms staff propose (docs/decisions/018): the terms that bind now beside the proposed ones; accept
 * with a code sent to the borrower's own phone, or decline. Nothing changes until the borrower answers.
 */
export function TermsChangeCard({ change }: { change: TermsChangeDto }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const sendCode = useSendTermsCode();
  const answer = useAnswerTermsChange();
  const countdown = useResendCountdown();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    setError(null);
    try {
      const sent = await sendCode.mutateAsync(change.id);
      countdown.sent(sent.resendAfterSeconds);
    } catch (e) {
      countdown.refused(formErrorsFromError(e, 'INTERNAL'));
      setError(errorText(e));
    }
  };
  const respond = async (kind: 'accept' | 'decline') => {
    setError(null);
    if (kind === 'accept' && code.length === 0) {
      setError(t('errors.CODE_REQUIRED'));
      return;
    }
    try {
      await answer.mutateAsync({ id: change.id, answer: kind, ...(kind === 'accept' ? { code } : {}) });
      notifySuccess(t(kind === 'accept' ? 'wallet.terms.accepted' : 'wallet.terms.declined'));
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="terms-change-title">
      <Stack gap="sm">
        <Group gap={8} wrap="nowrap">
          <IconFileAlert size={22} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Title order={2} size="h4" id="terms-change-title">
            {t('wallet.terms.proposedTitle')}
          </Title>
        </Group>
        <Text size="sm">{t('wallet.terms.proposedIntro')}</Text>
        {change.reason ? (
          <Paper withBorder radius="md" px="sm" py="xs">
            <Text size="sm">{t('wallet.terms.reason', { reason: change.reason })}</Text>
          </Paper>
        ) : null}
        <TermsFigures
          caption={t('wallet.terms.compareCaption')}
          columns={[
            { label: t('wallet.terms.now'), disclosure: change.previous },
            { label: t('wallet.terms.proposed'), disclosure: change.disclosure },
          ]}
        />
        <CodeField
          label={t('wallet.terms.code')}
          description={t('wallet.terms.codeHint')}
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          sendLabel={t('wallet.withdraw.sendCode')}
          resendLabel={(n) => t('wallet.withdraw.resendIn', { n })}
          secondsLeft={countdown.remaining}
          sending={sendCode.isPending}
          onSend={() => void send()}
        />
        <FormError message={error} />
        <Group gap="sm" grow>
          <Button variant="default" onClick={() => void respond('decline')} disabled={answer.isPending}>
            {t('wallet.terms.decline')}
          </Button>
          <Button color="green.8" onClick={() => void respond('accept')} loading={answer.isPending}>
            {t('wallet.terms.accept')}
          </Button>
        </Group>
        <SafetyNotice />
      </Stack>
    </Paper>
  );
}
