import { Alert, Anchor, Button, FileInput, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pictureMaxBytes } from '../../../../domain/images';
import {
  type ComplaintCategory,
  complaintCategories,
  fileComplaintSchema,
  type MyComplaintDto,
} from '../../../../domain/schemas/complaints';
import { limits } from '../../../../domain/schemas/limits';
import { DraftNotice } from '../../../components/draft-notice';
import { InlineLoadError, InlineLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { draftText, useFormDraft } from '../../../lib/form-draft';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useFileComplaint, useMyComplaints } from '../api/account-api';

function ComplaintItem({ complaint }: { complaint: MyComplaintDto }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const b = (key: string, values?: Record<string, string>) => t(`complaints.borrower.${key}`, values);
  return (
    <Paper withBorder radius="md" p="sm" component="article" aria-label={complaint.reference}>
      <Stack gap={6}>
        <Stack gap={2}>
          <Text fw={700} ff="monospace">
            {complaint.reference}
          </Text>
          <StatusBadge status={complaint.status} w="fit-content" />
        </Stack>
        <Text size="xs" c="dimmed">
          {t(`complaints.categories.${complaint.category}`)} ·{' '}
          {b('filedOn', { date: fmt.dateTime(complaint.createdAt) })}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {complaint.text}
        </Text>
        {complaint.hasPicture ? (
          <Anchor href={`/api/complaints/${complaint.id}/picture`} target="_blank" rel="noreferrer" size="sm">
            {b('viewPicture')}
          </Anchor>
        ) : null}
        {complaint.replies.length === 0 && complaint.status !== 'resolved' ? (
          <Text size="sm" c="dimmed">
            {b('noReplies')}
          </Text>
        ) : null}
        {complaint.replies.map((reply) => (
          <Paper key={reply.id} radius="sm" p="xs" bg="var(--mantine-color-default-hover)">
            <Text size="xs" fw={600}>
              {b('reply', { date: fmt.dateTime(reply.createdAt) })}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {reply.message}
            </Text>
          </Paper>
        ))}
        {complaint.status === 'resolved' && complaint.resolutionNote ? (
          <Alert color="green" variant="light" title={b('resolution')}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {complaint.resolutionNote}
            </Text>
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The complaint being written is kept under this name (lib/form-draft.ts); the account page opens it. */
export const complaintDraftKey = 'complaint';

function keptCategory(value: unknown): ComplaintCategory | null {
  return complaintCategories.find((category) => category === value) ?? null;
}

/**
 * Complaints (issue #14; RA 11765 redress): file one (category, text, optional picture) and follow each
 * filed complaint's status, every reply and the resolution.
 */
export function ComplaintsSection() {
  const { t } = useTranslation();
  const complaints = useMyComplaints();
  const fileComplaint = useFileComplaint();
  const errors = useFormErrors();
  // What is typed survives an ended session, a reload or a closed tab for a day (issue #32); the picture
  // is never kept.
  const draft = useFormDraft<{ category: string; text: string }>(complaintDraftKey);
  const [category, setCategory] = useState<ComplaintCategory | null>(() =>
    keptCategory(draft.restored?.category),
  );
  const [text, setText] = useState(() => draftText(draft.restored?.text));
  const [picture, setPicture] = useState<File | null>(null);
  const b = (key: string, values?: Record<string, string>) => t(`complaints.borrower.${key}`, values);
  const formRef = useRef<HTMLFormElement>(null);
  // Back after signing in again: the form the borrower was writing is where they look.
  const restoredOnOpen = useRef(draft.restored !== null);
  useEffect(() => {
    if (restoredOnOpen.current) formRef.current?.scrollIntoView?.({ block: 'center' });
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = fileComplaintSchema.safeParse({ category: category ?? '', text });
    if (!parsed.success) {
      errors.set(formErrorsFromIssues(parsed.error.issues));
      return;
    }
    if (picture && picture.size > pictureMaxBytes) {
      errors.set({ top: null, fields: { picture: { code: 'IMAGE_TOO_LARGE' } } });
      return;
    }
    errors.clear();
    try {
      const filed = await fileComplaint.mutateAsync({ ...parsed.data, picture });
      notifySuccess(b('filed', { reference: filed.reference }));
      draft.clear();
      setCategory(null);
      setText('');
      setPicture(null);
    } catch (error) {
      errors.set(formErrorsFromError(error, 'INTERNAL'));
    }
  };

  return (
    <Stack gap="md" id="complaints">
      <Text size="sm">{b('intro')}</Text>
      <form onSubmit={submit} noValidate aria-label={b('title')} ref={formRef}>
        <Stack gap="sm">
          <DraftNotice
            draft={draft}
            note={t('session.draftPictureAgain')}
            onStartOver={() => {
              setCategory(null);
              setText('');
              errors.clear();
            }}
          />
          <Select
            label={b('category')}
            required
            value={category}
            onChange={(value) => {
              setCategory(value as ComplaintCategory | null);
              draft.save({ category: value ?? '' });
              errors.clearField('category');
            }}
            data={complaintCategories.map((value) => ({ value, label: t(`complaints.categories.${value}`) }))}
            error={errors.field('category')}
          />
          <Textarea
            label={b('text')}
            required
            autosize
            minRows={3}
            maxLength={limits.complaintText}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              draft.save({ text: event.currentTarget.value });
              errors.clearField('text');
            }}
            error={errors.field('text')}
          />
          <FileInput
            label={b('picture')}
            description={b('pictureHint')}
            accept="image/jpeg,image/png,image/webp"
            clearable
            leftSection={<IconPaperclip size={16} />}
            value={picture}
            onChange={(file) => {
              setPicture(file);
              errors.clearField('picture');
            }}
            error={errors.field('picture')}
          />
          {errors.alert ? (
            <Alert color="red" variant="light" role="alert">
              {errors.alert}
            </Alert>
          ) : null}
          <Button type="submit" loading={fileComplaint.isPending} w="fit-content">
            {b('submit')}
          </Button>
        </Stack>
      </form>
      <Title order={3} size="h6">
        {b('yours')}
      </Title>
      {complaints.isPending ? (
        <InlineLoading />
      ) : complaints.isError ? (
        <InlineLoadError error={complaints.error} onRetry={() => void complaints.refetch()} />
      ) : complaints.data.complaints.length === 0 ? (
        <Text size="sm" c="dimmed">
          {b('empty')}
        </Text>
      ) : (
        complaints.data.complaints.map((complaint) => (
          <ComplaintItem key={complaint.id} complaint={complaint} />
        ))
      )}
    </Stack>
  );
}
