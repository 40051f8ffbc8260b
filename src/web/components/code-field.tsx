import { Box, Button, Group, TextInput } from '@mantine/core';
import type { ReactNode, Ref } from 'react';
import { codePolicy } from '../../domain/codes';

export interface CodeFieldProps {
  inputRef?: Ref<HTMLInputElement>;
  label: string;
  description?: ReactNode;
  value: string;
  /** Receives digits only, at most the code's length. */
  onChange: (code: string) => void;
  error?: ReactNode;
  disabled?: boolean;
  autoComplete?: string;
  /** The button beside the box: "Send Code", or "Resend in 42s" while `secondsLeft` > 0. */
  sendLabel: string;
  resendLabel: (seconds: number) => string;
  secondsLeft: number;
  sending: boolean;
  sendDisabled?: boolean;
  onSend: () => void;
  /** How the button lines up with the box: 'flex-start' keeps it at the top when a hint shows below. */
  align?: 'flex-start' | 'center';
}

/**
 * A one-time code box (digits only, SPEC §5 length) with its Send / Resend button and countdown beside it,
 * as sign-up and withdrawal both ask for one.
 */
export function CodeField(props: CodeFieldProps) {
  const waiting = props.secondsLeft > 0;
  return (
    <TextInput
      ref={props.inputRef}
      label={props.label}
      description={props.description}
      inputMode="numeric"
      autoComplete={props.autoComplete ?? 'off'}
      maxLength={codePolicy.length}
      disabled={props.disabled}
      value={props.value}
      onChange={(event) =>
        props.onChange(event.currentTarget.value.replace(/\D/g, '').slice(0, codePolicy.length))
      }
      error={props.error}
      inputContainer={(input) => (
        <Group gap="xs" wrap="nowrap" align={props.align ?? 'flex-start'}>
          <Box flex={1} miw={0}>
            {input}
          </Box>
          <Button
            variant="light"
            onClick={props.onSend}
            loading={props.sending}
            disabled={waiting || props.sendDisabled}
            miw={112}
            px="sm"
          >
            {waiting ? props.resendLabel(props.secondsLeft) : props.sendLabel}
          </Button>
        </Group>
      )}
    />
  );
}
