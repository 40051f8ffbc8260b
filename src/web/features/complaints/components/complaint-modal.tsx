import { Anchor, Image, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../../../domain/schemas/limits';
import { DraftNotice } from '../../../components/draft-notice';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { FormModal } from '../../../components/modals';
import { StatusBadge } from '../../../components/status-badge';
import { draftText, useFormDraft } from '../../../lib/form-draft';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { complaintPictureUrl, useComplaint, useReplyToComplaint } from '../api/complaints';

/** View and reply: the complaint, its picture, the whole thread, and a reply the borrower will read. */
export function ComplaintModal(props: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const complaint = useComplaint(props.id);
  const reply = useReplyToComplaint();
  const [message, setMessage] = useState('');
  const d = (key: string, values?: Record<string, string>) => t(`complaints.staff.detail.${key}`, values);
  // The reply is kept while typed (issue #32), per complaint.
  const draft = useFormDraft<{ message: string }>(props.id ? `complaint.reply:${props.id}` : null);
  const kept = draftText(draft.restored?.message);
  // biome-ignore lint/correctness/useExhaustiveDependencies: kept is read once per opening
  useEffect(() => {
    if (props.id) setMessage(kept);
  }, [props.id]);
  const data = complaint.data;
  const resolved = data?.status === 'resolved';

  return (
    <FormModal
      opened={props.id !== null}
      onClose={props.onClose}
      size="lg"
      title={d('title', { reference: data?.reference ?? '' })}
      confirmLabel={resolved ? undefined : d('send')}
      confirmDisabled={!data || resolved}
      validate={() => (message.trim() ? null : t('errors.COMPLAINT_REPLY_REQUIRED'))}
      onConfirm={async () => {
        if (!data) return;
        const done = await reply.run({ id: data.id, message: message.trim() });
        draft.clear();
        if (done) notifySuccess(d('sent'));
      }}
    >
      {complaint.isPending ? (
        <InlineLoading />
      ) : complaint.isError || !data ? (
        <InlineLoadError error={complaint.error ?? null} onRetry={() => void complaint.refetch()} />
      ) : (
        <Stack gap="sm">
          <StatusBadge status={data.status} w="fit-content" />
          <Text size="sm">
            {fmt.text(data.fullName)} · {fmt.text(data.phone)}
            {data.loanNumber ? ` · ${d('loan')} ${data.loanNumber}` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            {t(`complaints.categories.${data.category}`)} · {fmt.dateTime(data.createdAt)}
          </Text>
          <Title order={3} size="h6">
            {d('complaint')}
          </Title>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {data.text}
          </Text>
          {data.hasPicture ? (
            <Anchor href={complaintPictureUrl(data.id)} target="_blank" rel="noreferrer" w="fit-content">
              <Image src={complaintPictureUrl(data.id)} alt={d('picture')} mah={180} w="auto" radius="sm" />
            </Anchor>
          ) : null}
          <Title order={3} size="h6">
            {d('thread')}
          </Title>
          {data.replyList.length === 0 ? (
            <Text size="sm" c="dimmed">
              {d('noReplies')}
            </Text>
          ) : (
            data.replyList.map((item) => (
              <Paper key={item.id} withBorder p="xs" radius="sm">
                <Text size="xs" c="dimmed">
                  {fmt.text(item.author)} · {fmt.dateTime(item.createdAt)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {item.message}
                </Text>
              </Paper>
            ))
          )}
          {resolved ? (
            <Text size="sm" fw={600}>
              {d('resolution', { name: fmt.text(data.resolvedBy), note: data.resolutionNote ?? '' })}
            </Text>
          ) : (
            <>
              <DraftNotice draft={draft} onStartOver={() => setMessage('')} />
              <Textarea
                label={d('reply')}
                description={d('replyHint')}
                autosize
                minRows={3}
                maxLength={limits.complaintReply}
                value={message}
                onChange={(event) => {
                  setMessage(event.currentTarget.value);
                  draft.save({ message: event.currentTarget.value });
                }}
              />
            </>
          )}
        </Stack>
      )}
    </FormModal>
  );
}
