import { Box, Image, Modal, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A private document (GET /api/files/:id, cookie-authenticated) as the browser can show it. */
export const fileUrl = (id: string) => `/api/files/${encodeURIComponent(id)}`;

/** A picture as a thumbnail; a click opens it large in a lightbox. */
export function DocumentThumb(props: { fileId: string; label: string; height?: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const height = props.height ?? 110;
  return (
    <Box>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={t('common.enlarge', { name: props.label })}
        style={{
          display: 'block',
          width: '100%',
          borderRadius: 'var(--mantine-radius-md)',
          border: '1px solid var(--mantine-color-default-border)',
          overflow: 'hidden',
          background: 'light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-6))',
        }}
      >
        <Image src={fileUrl(props.fileId)} alt={props.label} h={height} fit="contain" loading="lazy" />
      </UnstyledButton>
      <Text size="xs" c="dimmed" mt={4} ta="center">
        {props.label}
      </Text>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.label} size="auto" centered>
        <Image
          src={fileUrl(props.fileId)}
          alt={props.label}
          fit="contain"
          mah="80vh"
          maw="min(90vw, 1000px)"
          bg="white"
        />
      </Modal>
    </Box>
  );
}
