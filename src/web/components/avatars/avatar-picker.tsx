import { VisuallyHidden } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './avatar-picker.module.css';
import { type AvatarId, avatarIds, avatarNameKey, avatarSrc } from './avatars';

export interface AvatarPickerProps {
  value: number;
  onChange: (avatar: AvatarId) => void;
  disabled?: boolean;
  /** Pixel size of each picture. */
  size?: number;
  /** Accessible name of the group; defaults to "Choose your avatar". */
  label?: string;
}

/**
 * The five preset avatars as native radio buttons behind the pictures, so keyboard use (one tab stop,
 * arrow keys) and screen readers work as for any radio group.
 */
export function AvatarPicker({ value, onChange, disabled = false, size = 48, label }: AvatarPickerProps) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className={classes.group} disabled={disabled}>
      <VisuallyHidden component="legend">{label ?? t('avatars.choose')}</VisuallyHidden>
      {avatarIds.map((id) => {
        const checked = id === value;
        return (
          <label key={id} className={classes.option} data-checked={checked || undefined}>
            <input
              type="radio"
              name={name}
              value={id}
              checked={checked}
              onChange={() => onChange(id)}
              aria-label={t(avatarNameKey(id))}
              className={classes.input}
            />
            <img src={avatarSrc(id)} alt="" width={size} height={size} className={classes.image} />
            {checked ? (
              <span className={classes.check} aria-hidden="true">
                <IconCheck size={12} stroke={3} />
              </span>
            ) : null}
          </label>
        );
      })}
    </fieldset>
  );
}
