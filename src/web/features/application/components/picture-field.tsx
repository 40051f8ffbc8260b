import { Button, Group, Input, Modal, Text } from '@mantine/core';
import { IconCameraPlus, IconTrash } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptedPictureTypes } from '../model/picture-check';
import classes from './picture-field.module.css';
import type { PictureValue } from './use-application-form';

/**
 * One picture of the application: a real file input (labelled, keyboard reachable) styled as a drop
 * tile, then a thumbnail that opens the picture large, with Change and Remove.
 */
export function PictureField(props: {
  label: string;
  value: PictureValue | undefined;
  error: string | null;
  disabled?: boolean;
  onPick: (file: File) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const [enlarged, setEnlarged] = useState(false);
  const { value } = props;
  return (
    <Input.Wrapper
      label={props.label}
      labelProps={{ htmlFor: id }}
      error={props.error}
      errorProps={{ id: errorId }}
    >
      <div style={{ marginTop: 4 }}>
        <input
          id={id}
          type="file"
          accept={acceptedPictureTypes}
          className={classes.input}
          disabled={props.disabled}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Reset so choosing the same file again still fires a change.
            event.currentTarget.value = '';
            if (file) props.onPick(file);
          }}
        />
        {value ? (
          <div className={classes.filled}>
            <button
              type="button"
              className={classes.thumb}
              onClick={() => setEnlarged(true)}
              aria-label={t('application.picture.enlarge', { name: props.label })}
            >
              <img src={value.url} alt={props.label} />
            </button>
            <div style={{ minWidth: 0, flex: 1 }}>
              <Text size="sm" truncate="end" title={value.name}>
                {value.name}
              </Text>
              <Group gap={6} mt={6} wrap="wrap">
                <Button
                  component="label"
                  htmlFor={id}
                  size="compact-sm"
                  variant="light"
                  className={classes.change}
                  disabled={props.disabled}
                >
                  {t('application.picture.change')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  onClick={props.onRemove}
                  disabled={props.disabled}
                >
                  {t('application.picture.remove')}
                </Button>
              </Group>
            </div>
          </div>
        ) : (
          <label htmlFor={id} className={classes.empty} data-error={props.error ? true : undefined}>
            <IconCameraPlus size={28} stroke={1.5} aria-hidden="true" style={{ flexShrink: 0 }} />
            <span>
              <Text size="sm" fw={600} component="span" display="block">
                {t('application.picture.choose')}
              </Text>
              <Text size="xs" c="dimmed" component="span" display="block">
                {t('application.picture.formats')}
              </Text>
            </span>
          </label>
        )}
      </div>
      {value ? (
        <Modal
          opened={enlarged}
          onClose={() => setEnlarged(false)}
          title={props.label}
          size="xl"
          centered
          radius="lg"
        >
          <img
            src={value.url}
            alt={props.label}
            style={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', margin: '0 auto' }}
          />
        </Modal>
      ) : null}
    </Input.Wrapper>
  );
}
