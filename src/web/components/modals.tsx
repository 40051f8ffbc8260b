import { Alert, Button, Group, Modal, type ModalProps, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../lib/error-text';

/** A red message inside a modal or form; nothing when there is none. */
export function FormError(props: { message: string | null; mt?: string }) {
  if (!props.message) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs" mt={props.mt}>
      {props.message}
    </Alert>
  );
}

export interface ModalFooterProps {
  /** The translated error to show above the buttons. */
  error: string | null;
  /** While the action runs: the confirm button spins and the other one is disabled. */
  running: boolean;
  /** Default "Confirm". */
  confirmLabel?: string | undefined;
  confirmColor?: string | undefined;
  confirmDisabled?: boolean | undefined;
  /** Focus the confirm button when the modal opens (questions without fields). */
  autofocusConfirm?: boolean | undefined;
  /** The other button; default "Cancel". */
  secondaryLabel?: string | undefined;
  onSecondary: () => void;
}

/** The one footer of every back-office modal: the error, then Cancel (or Back) and the submit button. */
export function ModalFooter(props: ModalFooterProps) {
  const { t } = useTranslation();
  return (
    <>
      <FormError message={props.error} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={props.onSecondary} disabled={props.running}>
          {props.secondaryLabel ?? t('common.cancel')}
        </Button>
        <Button
          type="submit"
          color={props.confirmColor}
          loading={props.running}
          disabled={props.confirmDisabled}
          data-autofocus={props.autofocusConfirm || undefined}
        >
          {props.confirmLabel ?? t('common.confirm')}
        </Button>
      </Group>
    </>
  );
}

/**
 * What `validate` answers: a translated message to show in the modal and stop, `true` when the caller has
 * shown the problem itself (e.g. under a field) and the modal should just stop, or null to go on.
 */
export type Validation = string | true | null;

export interface FormModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  size?: ModalProps['size'];
  /** The fields (their state is the caller's). */
  children?: ReactNode;
  confirmLabel?: string | undefined;
  confirmColor?: string | undefined;
  confirmDisabled?: boolean | undefined;
  autofocusConfirm?: boolean | undefined;
  /** Replaces Cancel (e.g. "Back" in a confirmation step). */
  secondary?: { label: string; onClick: () => void } | undefined;
  /** Checked before anything is sent. */
  validate?: (() => Validation) | undefined;
  /**
   * The action. Resolve to close the modal; throw (e.g. an ApiError) to keep it open with the translated
   * error shown in it. Return `false` to keep it open without an error (e.g. a next step was shown).
   */
  onConfirm: () => unknown;
}

/**
 * A modal holding one form: Enter submits, the confirm button spins while the action runs, the server's
 * error is shown in the modal and clears when it opens again.
 */
export function FormModal(props: FormModalProps) {
  const errorText = useErrorText();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.opened) setError(null);
  }, [props.opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = props.validate?.() ?? null;
    if (problem !== null) {
      setError(problem === true ? null : problem);
      return;
    }
    setRunning(true);
    setError(null);
    try {
      const result = await props.onConfirm();
      if (result !== false) props.onClose();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      size={props.size ?? 'md'}
    >
      {/* Typing again clears the last error: it was about what was there before. */}
      <form onSubmit={(event) => void submit(event)} onInput={() => error && setError(null)} noValidate>
        <Stack gap="md">
          {props.children}
          <ModalFooter
            error={error}
            running={running}
            confirmLabel={props.confirmLabel}
            confirmColor={props.confirmColor}
            confirmDisabled={props.confirmDisabled}
            autofocusConfirm={props.autofocusConfirm}
            secondaryLabel={props.secondary?.label}
            onSecondary={props.secondary?.onClick ?? props.onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
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
  /** Resolve to close the modal; throw (e.g. an ApiError) to keep it open with the error shown in it. */
  onConfirm: () => unknown;
}

/** A yes/no question with Cancel and a confirm button that spins while the action runs. */
export function ConfirmModal(props: ConfirmModalProps) {
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      confirmLabel={props.confirmLabel}
      confirmColor={props.confirmColor}
      autofocusConfirm
      onConfirm={props.onConfirm}
    >
      {typeof props.message === 'string' ? <Text>{props.message}</Text> : props.message}
    </FormModal>
  );
}
