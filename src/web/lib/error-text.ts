import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { writeIsoDate } from '../../domain/date-text';
import { type ErrorParams, moneyParamsAsText } from '../../domain/error-params';
import { isFieldKey } from '../../domain/field-keys';
import { formatMoney } from '../../domain/money';
import { ApiError } from './api';
import { currentLanguage } from './i18n';

/** An error to show: a catalogue code (errors.<CODE> in the locales), its params, and the server's text. */
export interface ErrorInfo {
  code: string;
  params?: ErrorParams | undefined;
  /** The server's (English) message, used when the code has no translation. */
  message?: string | undefined;
}

/**
 * `t('errors.' + code, params)`, falling back to the server's message, then to the generic failure. Money
 * (centavos) and a calendar date ('YYYY-MM-DD', e.g. "was due on {date}") are written as the reader's
 * language writes them, not as the API sends them, and a field an error names (`fieldKey`) by its name in
 * the reader's language (`fields.<key>`, src/domain/field-names).
 */
export function translateError(t: TFunction, error: ErrorInfo): string {
  const fallback = error.message || t('errors.INTERNAL');
  const language = currentLanguage();
  const params: Record<string, unknown> = error.params
    ? moneyParamsAsText(error.params, (minor, options) =>
        formatMoney(minor, { locale: language, ...options }),
      )
    : {};
  if (typeof params.date === 'string') params.date = writeIsoDate(language, params.date) ?? params.date;
  if (isFieldKey(params.fieldKey)) params.field = t(`fields.${params.fieldKey}`);
  return t(`errors.${error.code}`, { ...params, defaultValue: fallback });
}

/**
 * A field's message: its error, naming that field if the error's text names one ("{field} is required").
 * The one way a field is named in an error, for the server's errors and the form's own checks alike.
 */
export function fieldErrorText(t: TFunction, fieldKey: string, error: ErrorInfo | string): string {
  const info = typeof error === 'string' ? { code: error } : error;
  return translateError(t, { ...info, params: { fieldKey, ...info.params } });
}

/**
 * What to tell the user about a failed request. Transport failures (offline, proxy error pages) and
 * unexpected errors become the screen's own failure code, e.g. LOGIN_FAILED.
 */
export function errorInfoFrom(error: unknown, failureCode = 'INTERNAL'): ErrorInfo {
  if (!(error instanceof ApiError) || error.isTransport) return { code: failureCode };
  return { code: error.code, params: error.params, message: error.message };
}

export function useErrorText(): (error: unknown, failureCode?: string) => string {
  const { t } = useTranslation();
  return useCallback((error, failureCode) => translateError(t, errorInfoFrom(error, failureCode)), [t]);
}
