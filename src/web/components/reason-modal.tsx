import { Text, Textarea } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { limits } from '../../domain/schemas/limits';
import { draftText, useFormDraft } from '../lib/form-draft';
import { DraftNotice } from './draft-notice';
import { FormModal, type Validation } from './modals';

export interface ReasonModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Text above the form, e.g. which loan this is about. */
  description?: ReactNode;
  /** Extra fields above the reason (their state is the caller's); validate them in `validate`. */
  children?: ReactNode;
  /** Label of the reason box; default "Reason". */
  reasonLabel?: string;
  /** Helper text under the label, e.g. "Shown to the borrower" when the borrower will read the reason. */
  reasonHint?: string;
  /** Default "Confirm". */
  confirmLabel?: string;
  confirmColor?: string;
  /** Optional check of the caller's extra fields before anything is sent (see `Validation`). */
  validate?: () => Validation;
  /**
   * When set, Confirm first shows this question (with Back and the confirm button again) and only the
   * second click runs `onConfirm` — for decisions that cannot be undone.
   */
  confirmStep?: (reason: string) => ReactNode;
  /** Receives the trimmed reason. Resolve to close; throw to keep the modal open with the error shown. */
  onConfirm: (reason: string) => unknown;
  /**
   * Keeps the reason while it is typed under this name (lib/form-draft.ts, issue #32): the action and its
   * record, e.g. `reject:<application id>`. Opening the modal again, after an ended session or a closed
   * modal, puts it back and says so; a confirmed action forgets it. A caller with fields of its own keeps
   * them under the same name (`useFormDraft(opened ? key : null)`) and empties them in `onDraftDiscarded`.
   */
  draftKey?: string | null;
  /** "Start over" was chosen: empty the caller's own fields. */
  onDraftDiscarded?: () => void;
}

/**
 * A required reason (SPEC §2.7): an empty reason shows "A reason is required." without calling the
 * server; server errors are shown in the modal.
 */
export function ReasonModal(props: ReasonModalProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const draft = useFormDraft<{ reason: string }>(props.opened ? (props.draftKey ?? null) : null);
  const kept = draftText(draft.restored?.reason);

  // Only on opening: the reason kept for this record then, if any.
  // biome-ignore lint/correctness/useExhaustiveDependencies: kept is read once per opening
  useEffect(() => {
    if (props.opened) {
      setReason(kept);
      setReasonError(null);
      setConfirming(false);
    }
  }, [props.opened]);

  const trimmed = reason.trim();
  const inConfirmStep = confirming && Boolean(props.confirmStep);
  const validate = (): Validation => {
    if (inConfirmStep) return null;
    if (!trimmed) {
      setReasonError(t('errors.REASON_REQUIRED'));
      return true;
    }
    return props.validate?.() ?? null;
  };
  const confirm = () => {
    if (props.confirmStep && !confirming) {
      setConfirming(true);
      return false;
    }
    return Promise.resolve(props.onConfirm(trimmed)).then((result) => {
      // Done (or already done by someone else): nothing left to keep.
      if (result !== false) draft.clear();
      return result;
    });
  };

  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      confirmLabel={props.confirmLabel}
      confirmColor={props.confirmColor}
      autofocusConfirm={inConfirmStep}
      secondary={
        inConfirmStep
          ? { label: t('backOffice.common.back'), onClick: () => setConfirming(false) }
          : undefined
      }
      validate={validate}
      onConfirm={confirm}
    >
      {inConfirmStep && props.confirmStep ? (
        props.confirmStep(trimmed)
      ) : (
        <>
          {typeof props.description === 'string' ? (
            <Text size="sm">{props.description}</Text>
          ) : (
            props.description
          )}
          <DraftNotice
            draft={draft}
            onStartOver={() => {
              setReason('');
              props.onDraftDiscarded?.();
            }}
          />
          {props.children}
          <Textarea
            label={props.reasonLabel ?? t('backOffice.common.reason')}
            description={props.reasonHint}
            withAsterisk
            autosize
            minRows={3}
            maxRows={8}
            maxLength={limits.reason}
            value={reason}
            error={reasonError}
            data-autofocus
            onChange={(event) => {
              setReason(event.currentTarget.value);
              draft.save({ reason: event.currentTarget.value });
              if (reasonError) setReasonError(null);
            }}
          />
        </>
      )}
    </FormModal>
  );
}
