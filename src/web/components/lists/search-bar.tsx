import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { phoneSearchTerm } from '../../../domain/phone';

/** What a phone search box drops as it is typed: anything but digits (any script), +, spaces, - . ( ). */
const notInAPhoneNumber = /[^\p{Nd}+\s\-\u2010-\u2015\u2212.()\uff08\uff09\uff0b\uff0d\uff0e]+/gu;

export interface SearchField {
  /** The URL and API query parameter, e.g. 'name'. */
  key: string;
  /** Translated label. */
  label: string;
  /**
   * 'text' (default); 'digits' is a phone search: it keeps only what a phone number is written with and
   * searches the stored digits ("+63 917-123" searches 0917123; src/domain/phone.ts); 'date' is a
   * yyyy-mm-dd date input; 'select' needs `options` and searches as soon as it changes.
   */
  type?: 'text' | 'digits' | 'date' | 'select';
  placeholder?: string;
  options?: { value: string; label: string }[];
  /** Input width in px on wide screens (default 220); phones always use the full width. */
  width?: number;
}

export interface SearchBarProps {
  fields: readonly SearchField[];
  /** The applied terms (from the URL). */
  values: Record<string, string>;
  /** Called by the Search button, Enter in any box, or a select change. */
  onSearch: (values: Record<string, string>) => void;
}

/** Search boxes and a Search button in one form, so Enter in any box searches. */
export function SearchBar({ fields, values, onSearch }: SearchBarProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(values);
  // Back / Forward change the applied terms: show them.
  useEffect(() => setDraft(values), [values]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const terms = { ...draft };
    for (const field of fields) {
      const value = terms[field.key];
      if (field.type === 'digits' && value) terms[field.key] = phoneSearchTerm(value);
    }
    setDraft(terms);
    onSearch(terms);
  };
  const set = (key: string, value: string) => setDraft((current) => ({ ...current, [key]: value }));

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is still unknown to some browsers and to jsdom
    <form onSubmit={submit} role="search">
      <Group gap="sm" align="flex-end" wrap="wrap">
        {fields.map((field) => {
          const common = {
            label: field.label,
            placeholder: field.placeholder,
            w: { base: '100%', xs: field.width ?? 220 },
          };
          if (field.type === 'select') {
            return (
              <Select
                key={field.key}
                {...common}
                data={field.options ?? []}
                value={draft[field.key] || null}
                clearable
                allowDeselect
                onChange={(value) => {
                  const next = { ...draft, [field.key]: value ?? '' };
                  setDraft(next);
                  onSearch(next);
                }}
              />
            );
          }
          return (
            <TextInput
              key={field.key}
              {...common}
              type={field.type === 'date' ? 'date' : 'search'}
              inputMode={field.type === 'digits' ? 'tel' : undefined}
              autoComplete="off"
              value={draft[field.key] ?? ''}
              onChange={(event) => {
                const raw = event.currentTarget.value;
                set(field.key, field.type === 'digits' ? raw.replace(notInAPhoneNumber, '') : raw);
              }}
            />
          );
        })}
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('backOffice.common.search')}
        </Button>
      </Group>
    </form>
  );
}

/** The borrower name and phone boxes most staff lists search by. */
export function nameAndPhoneSearch(t: TFunction): SearchField[] {
  return [
    { key: 'name', label: t('backOffice.search.name'), placeholder: t('backOffice.search.namePlaceholder') },
    {
      key: 'phone',
      label: t('backOffice.search.phone'),
      placeholder: t('backOffice.search.phonePlaceholder'),
      type: 'digits',
    },
  ];
}
