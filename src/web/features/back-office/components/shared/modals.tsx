import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../lib/error-text';

/** Longest reason the server takes (domain/schemas/staff.ts). */
export const REASON_MAX_LENGTH = 500;

function ErrorAlert(props: { message: string | null }) {
  if (!props.message) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs">
      {props.message}
    </Alert>
  );
}

/** Tracks a modal action's running state and its (translated) server error. */
function useAction() {
  const errorText = useErrorText();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => unknown): Promise<boolean> => {
    setRunning(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(errorText(caught));
      return false;
    } finally {
      setRunning(false);
    }
  };
  return { running, error, setError, run };
}

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The question, e.g. "Are you sure you want to delete ana?". */
  message: ReactNode;
  /** Default "Confirm". */
  confirmLabel?: string;
  /** Default 'brand'; use 'red' for destructive actions. */
  confirmColor?: string;
  /**
   * The action. Resolve to close the modal; throw (e.g. an ApiError) to keep it open with the error
   * shown in it.
   */
  onConfirm: () => unknown;
}

/** A yes/no question with Cancel and a confirm button that spins while the action runs. */
export function ConfirmModal(props: ConfirmModalProps) {
  const { t } = useTranslation();
  const action = useAction();
  const { setError } = action;
  useEffect(() => {
    if (props.opened) setError(null);
  }, [props.opened, setError]);
  const confirm = async () => {
    if (await action.run(props.onConfirm)) props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Stack gap="md">
        {typeof props.message === 'string' ? <Text>{props.message}</Text> : props.message}
        <ErrorAlert message={action.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onClose} disabled={action.running}>
            {t('backOffice.common.cancel')}
          </Button>
          <Button
            color={props.confirmColor}
            loading={action.running}
            onClick={() => void confirm()}
            data-autofocus
          >
            {props.confirmLabel ?? t('backOffice.common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

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
  /** Default "Confirm". */
  confirmLabel?: string;
  confirmColor?: string;
  /**
   * Optional check of the caller's extra fields before anything is sent: return a translated message
   * to show it and stop, or null to go on.
   */
  validate?: () => string | null;
  /**
   * When set, Confirm first shows this question (with Back and the confirm button again) and only the
   * second click runs `onConfirm` — for decisions that cannot be undone.
   */
  confirmStep?: (reason: string) => ReactNode;
  /** Receives the trimmed reason. Resolve to close; throw to keep the modal open with the error shown. */
  onConfirm: (reason: string) => unknown;
}

/**
 * A required reason (SPEC §2.7): an empty reason shows "A reason is required." without calling the
 * server; server errors are shown in the modal.
 */
export function ReasonModal(props: ReasonModalProps) {
  const { t } = useTranslation();
  const action = useAction();
  const { setError } = action;
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (props.opened) {
      setReason('');
      setReasonError(null);
      setConfirming(false);
      setError(null);
    }
  }, [props.opened, setError]);

  const trimmed = reason.trim();
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed) {
      setReasonError(t('errors.REASON_REQUIRED'));
      return;
    }
    const problem = props.validate?.() ?? null;
    if (problem) {
      setError(problem);
      return;
    }
    if (props.confirmStep && !confirming) {
      setError(null);
      setConfirming(true);
      return;
    }
    if (await action.run(() => props.onConfirm(trimmed))) props.onClose();
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered size="md">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {confirming && props.confirmStep ? (
            <>
              {props.confirmStep(trimmed)}
              <ErrorAlert message={action.error} />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={() => setConfirming(false)} disabled={action.running}>
                  {t('backOffice.common.back')}
                </Button>
                <Button type="submit" color={props.confirmColor} loading={action.running} data-autofocus>
                  {props.confirmLabel ?? t('backOffice.common.confirm')}
                </Button>
              </Group>
            </>
          ) : (
            <>
              {typeof props.description === 'string' ? (
                <Text size="sm">{props.description}</Text>
              ) : (
                props.description
              )}
              {props.children}
              <Textarea
                label={props.reasonLabel ?? t('backOffice.common.reason')}
                withAsterisk
                autosize
                minRows={3}
                maxRows={8}
                maxLength={REASON_MAX_LENGTH}
                value={reason}
                error={reasonError}
                data-autofocus
                onChange={(event) => {
                  setReason(event.currentTarget.value);
                  if (reasonError) setReasonError(null);
                }}
              />
              <ErrorAlert message={action.error} />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={props.onClose} disabled={action.running}>
                  {t('backOffice.common.cancel')}
                </Button>
                <Button type="submit" color={props.confirmColor} loading={action.running}>
                  {props.confirmLabel ?? t('backOffice.common.confirm')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Modal>
  );
}
