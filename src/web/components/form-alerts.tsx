import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';

/**
 * Under a form: what went wrong (`useFormErrors().alert`, announced at once) or, once it worked, what
 * happened next (announced politely). Either may be absent.
 */
export function FormAlerts({ error, success }: { error: string | null; success?: string | null }) {
  return (
    <>
      {error ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {error}
        </Alert>
      ) : null}
      {success ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status">
          {success}
        </Alert>
      ) : null}
    </>
  );
}
