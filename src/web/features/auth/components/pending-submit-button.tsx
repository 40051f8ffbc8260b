import { Button, Loader } from '@mantine/core';

/**
 * The submit button of the sign-up and reset forms: full width, and while the request runs a spinner and the
 * "…ing" label (`pendingLabel`), so a slow phone shows that the tap was taken.
 */
export function PendingSubmitButton(props: {
  pending: boolean;
  disabled: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Button
      type="submit"
      fullWidth
      size="md"
      mt={4}
      disabled={props.disabled}
      leftSection={props.pending ? <Loader size={16} color="currentColor" /> : null}
    >
      {props.pending ? props.pendingLabel : props.label}
    </Button>
  );
}
