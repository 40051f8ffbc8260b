import { Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComplaintListItem } from '../../../../domain/schemas/complaints';
import { FormModal } from '../../../components/modals';
import { notifySuccess } from '../../../lib/notify';
import { useAssignComplaint, useAssignees } from '../api/complaints';

/** Assign: give the complaint to an active officer or admin. */
export function AssignComplaintModal(props: {
  row: ComplaintListItem | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const assignees = useAssignees(props.opened);
  const assign = useAssignComplaint();
  const [assigneeId, setAssigneeId] = useState<string | null>(null);
  const { row } = props;
  useEffect(() => {
    if (props.opened) setAssigneeId(null);
  }, [props.opened]);
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={t('complaints.staff.assign.title', { reference: row?.reference ?? '' })}
      confirmLabel={t('complaints.staff.assign.confirm')}
      validate={() => (assigneeId ? null : t('errors.COMPLAINT_ASSIGNEE_INVALID'))}
      onConfirm={async () => {
        if (!row || !assigneeId) return;
        const done = await assign.run({ id: row.id, assigneeId });
        if (done) notifySuccess(t('complaints.staff.assign.done'));
      }}
    >
      <Select
        label={t('complaints.staff.assign.assignee')}
        data-autofocus
        value={assigneeId}
        onChange={setAssigneeId}
        data={(assignees.data?.assignees ?? []).map((a) => ({
          value: a.id,
          label: `${a.name} (${t(`auditLabels.roles.${a.role}`, { defaultValue: a.role })})`,
        }))}
      />
    </FormModal>
  );
}
