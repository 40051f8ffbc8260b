import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A password input whose show/hide toggle is a real, labelled button (Mantine hides it from assistive
 * technology and the keyboard by default) and whose errors are announced.
 */
export function PasswordField(props: Omit<PasswordInputProps, 'visible' | 'onVisibilityChange'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      // Mantine marks only its text inputs as invalid for assistive technology.
      aria-invalid={props.error ? true : undefined}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{
        'aria-label': visible ? t('common.hidePassword') : t('common.showPassword'),
        tabIndex: 0,
        onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            setVisible((v) => !v);
          }
        },
      }}
    />
  );
}
