import { useTranslation } from 'react-i18next';
import type { ComplaintListItem } from '../../../../domain/schemas/complaints';
import { ReasonModal } from '../../../components/reason-modal';
import { notifySuccess } from '../../../lib/notify';
import { useResolveComplaint } from '../api/complaints';

/** Resolve: the note is what the borrower reads as the outcome; the server resolves each complaint once. */
export function ResolveComplaintModal(props: {
  row: ComplaintListItem | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const resolve = useResolveComplaint();
  const { row } = props;
  return (
    <ReasonModal
      opened={props.opened}
      onClose={props.onClose}
      title={t('complaints.staff.resolve.title', { reference: row?.reference ?? '' })}
      reasonLabel={t('complaints.staff.resolve.note')}
      confirmLabel={t('complaints.staff.resolve.confirm')}
      confirmColor="green.8"
      draftKey={row ? `complaint.resolve:${row.id}` : null}
      onConfirm={async (note) => {
        if (!row) return;
        const done = await resolve.run({ id: row.id, note });
        if (done) notifySuccess(t('complaints.staff.resolve.done'));
      }}
    />
  );
}
