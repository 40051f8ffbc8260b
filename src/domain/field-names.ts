import en from './field-names/en.json';
import fil from './field-names/fil.json';
import km from './field-names/km.json';
import zh from './field-names/zh.json';

/**
 * The names of the fields an error can name ("{field} is required"), in every language (issue #36). An
 * error carries the field's key (`params.fieldKey`), never a label: the server writes its English message
 * from `en`, and the web merges this catalogue into its locales as `fields` and names the field in the
 * reader's language. A field's key is its name in the form and the API (`contactPhone`).
 */
export const fieldNames = { en, fil, zh, km } as const;
export { type FieldKey, fieldKeys, fieldNamingCodes, isFieldKey } from './field-keys';
