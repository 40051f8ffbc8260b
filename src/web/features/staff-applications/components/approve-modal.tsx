import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { type ApplicationListItem, creditScoreSchema } from '../../../../domain/schemas/staff';
import { FormModal } from '../../../components/modals';
import { CreditScoreInput } from '../../../components/staff/credit-score-input';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDefaultCreditScore } from '../../../lib/settings';
import { useApproveApplication } from '../api/applications';

export interface ApproveModalProps {
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}

/** Approve: the credit score (pre-filled with the lender's default, rating shown live), then one atomic approval. */
export function ApproveModal({ row, opened, onClose }: ApproveModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const approve = useApproveApplication();
  const defaultScore = useDefaultCreditScore() ?? limits.creditScore.default;
  const [score, setScore] = useState<string | number>(defaultScore);
  useEffect(() => {
    if (opened) setScore(defaultScore);
  }, [opened, defaultScore]);
  const parsed = creditScoreSchema.safeParse(score === '' ? undefined : score);

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('backOffice.approve.title')}
      confirmLabel={t('backOffice.approve.confirm')}
      confirmColor="green.8"
      validate={() => (parsed.success ? null : t('errors.CREDIT_SCORE_INVALID'))}
      onConfirm={async () => {
        if (!row || !parsed.success) return;
        const profile = await approve.run({ id: row.id, creditScore: parsed.data });
        if (!profile) return;
        // Above the four-eyes threshold the first approval waits for a second staff member.
        notifySuccess(
          t(profile.status === 'approved' ? 'backOffice.approve.success' : 'backOffice.approve.firstDone', {
            loanNumber: row.loanNumber,
          }),
        );
      }}
    >
      {row ? (
        <Text size="sm">
          {t('backOffice.approve.description', {
            loanNumber: row.loanNumber,
            name: row.fullName,
            amount: fmt.money(row.amountMinor),
            term: t('backOffice.common.months', { count: row.termMonths }),
          })}
        </Text>
      ) : null}
      <CreditScoreInput
        label={t('backOffice.approve.creditScore')}
        hint={t('backOffice.approve.creditScoreHint')}
        ratingKey="backOffice.approve.rating"
        value={score}
        onChange={setScore}
        autoFocus
      />
    </FormModal>
  );
}
