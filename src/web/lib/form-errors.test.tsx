import { TextInput } from '@mantine/core';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type FieldKey, fieldKeys, fieldNames } from '../../domain/field-names';
import { renderWithProviders } from '../test/render';
import { ApiError } from './api';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from './form-errors';
import i18n, { languages } from './i18n';

/** A form with one field per key, showing the server's refusal as the app's forms do. */
function Form({ error }: { error: ApiError }) {
  const errors = useFormErrors();
  return (
    <form>
      <button type="button" onClick={() => errors.set(formErrorsFromError(error, 'INTERNAL'))}>
        show
      </button>
      {fieldKeys.map((key) => (
        <TextInput key={key} name={key} aria-label={key} error={errors.field(key)} />
      ))}
    </form>
  );
}

describe('a field error as the forms show it (issue #36)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it.each(languages)('names every field in %s under the field', async (language) => {
    await i18n.changeLanguage(language);
    // The server's answer: the key of each field, an English message for API clients.
    const fields = Object.fromEntries(
      fieldKeys.map((key, i) => {
        const code = (['FIELD_REQUIRED', 'FIELD_DIGITS_ONLY', 'FIELD_TOO_LONG'] as const)[i % 3]!;
        return [key, { code, message: `${fieldNames.en[key]} is wrong`, params: { fieldKey: key } }];
      }),
    );
    const error = new ApiError({ code: 'VALIDATION_FAILED', message: 'Please check.', status: 400, fields });
    renderWithProviders(<Form error={error} />);
    await act(async () => screen.getByRole('button', { name: 'show' }).click());
    for (const key of fieldKeys as FieldKey[]) {
      const input = screen.getByRole('textbox', { name: key });
      const shown =
        document.getElementById(
          input
            .getAttribute('aria-describedby')
            ?.split(' ')
            .find((id) => id.endsWith('-error')) ?? '',
        )?.textContent ?? '';
      expect(shown, `${language} ${key}`).toContain(fieldNames[language][key]);
      if (!fieldNames[language][key].includes(fieldNames.en[key]))
        expect(shown, `${language} ${key}`).not.toContain(fieldNames.en[key]);
      expect(shown, `${language} ${key}`).not.toMatch(/[{}]/);
    }
  });
});

describe("a schema's issues as form errors", () => {
  it('reads codes as codes and anything else as the fallback, naming the field an error names', () => {
    const errors = formErrorsFromIssues([
      { path: ['phone'], message: 'PHONE_INVALID' },
      { path: ['password'], message: 'Invalid input: expected string' },
      { path: ['contactPhone'], message: 'FIELD_REQUIRED' },
      { path: ['phone'], message: 'FIELD_REQUIRED' },
    ]);
    expect(errors.top).toEqual({ code: 'FIELD_REQUIRED', params: { fieldKey: 'contactPhone' } });
    expect(errors.fields).toEqual({
      phone: { code: 'PHONE_INVALID' },
      password: { code: 'VALIDATION_FAILED' },
      contactPhone: { code: 'FIELD_REQUIRED', params: { fieldKey: 'contactPhone' } },
    });
  });
});
