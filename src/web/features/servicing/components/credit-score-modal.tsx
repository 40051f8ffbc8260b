import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { creditScoreSchema } from '../../../../domain/schemas/staff';
import { ReasonModal } from '../../../components/reason-modal';
import { CreditScoreInput } from '../../../components/staff/credit-score-input';
import { useCreditScoreText } from '../../../components/staff/profile-modal';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDefaultCreditScore } from '../../../lib/settings';
import { useChangeCreditScore } from '../api/servicing';
import { Current, LoanLine, type ServicingModalProps } from './loan-line';

/** Change Credit Score (officer, admin): the domain's range with the rating shown live. */
export function CreditScoreModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const scoreText = useCreditScoreText();
  const change = useChangeCreditScore();
  const defaultScore = useDefaultCreditScore() ?? limits.creditScore.default;
  const [score, setScore] = useState<string | number>('');
  useEffect(() => {
    if (opened) setScore(loan?.creditScore ?? defaultScore);
  }, [opened, loan, defaultScore]);
  const parsed = creditScoreSchema.safeParse(score === '' ? undefined : score);

  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.creditScore.title')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Current label={t('servicing.creditScore.current')}>{scoreText(loan.creditScore)}</Current>
          </LoanLine>
        ) : undefined
      }
      validate={() => (parsed.success ? null : t('errors.CREDIT_SCORE_INVALID'))}
      onConfirm={async (reason) => {
        if (!loan || !parsed.success) return;
        const updated = await change.run({ id: loan.id, creditScore: parsed.data, reason });
        if (updated)
          notifySuccess(
            t('servicing.creditScore.toast', { loanNumber: loan.loanNumber, score: fmt.number(parsed.data) }),
          );
      }}
    >
      <CreditScoreInput
        label={t('servicing.creditScore.label')}
        hint={t('servicing.creditScore.hint')}
        ratingKey="servicing.creditScore.rating"
        withAsterisk
        value={score}
        onChange={setScore}
      />
    </ReasonModal>
  );
}
