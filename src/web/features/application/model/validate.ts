import { type ErrorCode, isErrorCode } from '../../../../domain/errors';
import {
  type ApplicationFileField,
  type ApplicationInfo,
  type ApplicationSection,
  applicationFileFields,
  applicationInfoFields,
  applicationInfoSchema,
  applicationSections,
} from '../../../../domain/schemas/application';

export type InfoField = keyof ApplicationInfo;
/** Step-2 text fields, as typed (strings; the relation is '' until chosen). */
export type InfoValues = Record<InfoField, string>;
export type PictureField = Exclude<ApplicationFileField, 'signature'>;
export type FieldName = InfoField | ApplicationFileField;

export const infoFields: readonly InfoField[] = applicationInfoFields;
export const pictureFields: readonly PictureField[] = ['idFront', 'idBack', 'selfie'];
export const sectionNames = Object.keys(applicationSections) as ApplicationSection[];

export function emptyInfo(): InfoValues {
  return Object.fromEntries(infoFields.map((field) => [field, ''])) as InfoValues;
}

/**
 * Every field's problem as an error code, with the same schema the server validates with (SPEC §5). The
 * first issue of a field wins, as on the server; missing pictures and an empty signature are added.
 */
export function validateApplication(
  values: InfoValues,
  present: Record<ApplicationFileField, boolean>,
): Partial<Record<FieldName, ErrorCode>> {
  const errors: Partial<Record<FieldName, ErrorCode>> = {};
  const parsed = applicationInfoSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]) as InfoField;
      if (!(field in errors)) errors[field] = isErrorCode(issue.message) ? issue.message : 'FIELD_REQUIRED';
    }
  }
  for (const field of applicationFileFields) {
    if (!present[field]) errors[field] = field === 'signature' ? 'SIGNATURE_REQUIRED' : 'FIELD_REQUIRED';
  }
  return errors;
}

export function sectionOf(field: string): ApplicationSection | null {
  return (
    sectionNames.find((section) => (applicationSections[section] as readonly string[]).includes(field)) ??
    null
  );
}

export function incompleteSections(errors: Partial<Record<string, unknown>>): ApplicationSection[] {
  return sectionNames.filter((section) =>
    applicationSections[section].some((field) => errors[field] !== undefined),
  );
}
