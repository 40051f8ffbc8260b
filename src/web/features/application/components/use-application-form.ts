import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ErrorCode } from '../../../../domain/errors';
import {
  type ApplicationFileField,
  type ApplicationSection,
  applicationSections,
} from '../../../../domain/schemas/application';
import type { FileStore } from '../../../lib/application-draft/file-store';
import type { ErrorInfo } from '../../../lib/error-text';
import { loadDraftFiles, loadTextDraft, saveDraftFile, updateTextDraft } from '../draft/draft-store';
import { checkPicture } from '../model/picture-check';
import type { Step1Data } from '../model/step1';
import {
  emptyInfo,
  type FieldName,
  type InfoField,
  type InfoValues,
  incompleteSections,
  type PictureField,
  pictureFields,
  sectionNames,
  validateApplication,
} from '../model/validate';

export interface PictureValue {
  blob: Blob;
  name: string;
  /** Object URL of the blob for the thumbnail; revoked when the picture goes. */
  url: string;
}

export interface SignatureValue {
  blob: Blob;
  /** CSS size of the pad when it was signed. */
  width: number;
  height: number;
  /** The disclosure (server quote) the borrower signed under. */
  sha256: string;
}

/**
 * The state of step 2: the typed fields, pictures and signature, which of them the borrower has
 * visited, and every error. Everything is written to the draft as it changes, so a reload restores it
 * (SPEC principle 7); the draft is only removed after a successful submission.
 */
export function useApplicationForm(options: {
  userId: string;
  step1: Step1Data;
  fileStore: FileStore;
  /** The sha256 of the server's current quote, once loaded. */
  quoteSha256: string | undefined;
}) {
  const { userId, step1, fileStore, quoteSha256 } = options;
  const restored = useMemo(() => loadTextDraft(userId), [userId]);

  const [values, setValues] = useState<InfoValues>(() => ({
    ...emptyInfo(),
    phone: step1.phone,
    ...restored.info,
  }));
  // Restored answers are shown with their errors at once; fresh fields only once visited.
  const [touched, setTouched] = useState<ReadonlySet<string>>(
    () => new Set(Object.entries(restored.info).flatMap(([field, value]) => (value ? [field] : []))),
  );
  const [pictures, setPictures] = useState<Partial<Record<PictureField, PictureValue>>>({});
  const [pictureErrors, setPictureErrors] = useState<Partial<Record<PictureField, ErrorCode>>>({});
  const [signature, setSignatureState] = useState<SignatureValue | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, ErrorInfo>>>({});
  const [filesRestored, setFilesRestored] = useState(false);
  const [filesNotKept, setFilesNotKept] = useState(false);
  /** True once the terms the signature was made under are no longer the quoted ones. */
  const [termsChanged, setTermsChanged] = useState(false);
  const finished = useRef(false);
  const urls = useRef(new Set<string>());

  const makeUrl = useCallback((blob: Blob) => {
    const url = URL.createObjectURL(blob);
    urls.current.add(url);
    return url;
  }, []);
  const dropUrl = useCallback((url: string | undefined) => {
    if (!url) return;
    URL.revokeObjectURL(url);
    urls.current.delete(url);
  }, []);
  useEffect(() => {
    const owned = urls.current;
    return () => {
      for (const url of owned) URL.revokeObjectURL(url);
      owned.clear();
    };
  }, []);

  const persistFile = useCallback(
    (field: ApplicationFileField, file: { blob: Blob; name: string } | null) => {
      if (finished.current) return;
      saveDraftFile(fileStore, userId, field, file).catch(() => setFilesNotKept(true));
    },
    [fileStore, userId],
  );

  // Pictures and the signature come back from the file store after the first render.
  useEffect(() => {
    let cancelled = false;
    loadDraftFiles(fileStore, userId).then((files) => {
      if (cancelled) return;
      setPictures((current) => {
        const next = { ...current };
        for (const field of pictureFields) {
          const file = files[field];
          // A picture chosen while the store was still loading wins over the saved one.
          if (file && !next[field])
            next[field] = { blob: file.blob, name: file.name, url: makeUrl(file.blob) };
        }
        return next;
      });
      const meta = loadTextDraft(userId).signature;
      if (files.signature && meta) {
        setSignatureState((current) => current ?? { blob: files.signature!.blob, ...meta });
      }
      setFilesRestored(true);
    });
    return () => {
      cancelled = true;
    };
  }, [fileStore, userId, makeUrl]);

  // The text is saved on every change (a few hundred bytes; localStorage is synchronous and cheap).
  useEffect(() => {
    if (!finished.current) updateTextDraft(userId, { info: values });
  }, [userId, values]);

  const setValue = useCallback((field: InfoField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  }, []);

  const touch = useCallback((...fields: string[]) => {
    setTouched((current) => {
      if (fields.every((field) => current.has(field))) return current;
      return new Set([...current, ...fields]);
    });
  }, []);

  const touchSection = useCallback(
    (section: ApplicationSection) => touch(...applicationSections[section]),
    [touch],
  );

  const removePicture = useCallback(
    (field: PictureField) => {
      setPictures((current) => {
        dropUrl(current[field]?.url);
        const { [field]: _gone, ...rest } = current;
        return rest;
      });
      persistFile(field, null);
    },
    [dropUrl, persistFile],
  );

  /** Checks the file by its bytes and size (SPEC §5); a refused file replaces nothing but the old choice. */
  const pickPicture = useCallback(
    async (field: PictureField, file: File) => {
      touch(field);
      setServerErrors((current) => ({ ...current, [field]: undefined }));
      const problem = await checkPicture(file);
      if (problem) {
        removePicture(field);
        setPictureErrors((current) => ({ ...current, [field]: problem }));
        return;
      }
      setPictureErrors((current) => ({ ...current, [field]: undefined }));
      setPictures((current) => {
        dropUrl(current[field]?.url);
        return { ...current, [field]: { blob: file, name: file.name, url: makeUrl(file) } };
      });
      persistFile(field, { blob: file, name: file.name });
    },
    [touch, removePicture, dropUrl, makeUrl, persistFile],
  );

  const setSignature = useCallback(
    (next: Omit<SignatureValue, 'sha256'> | null) => {
      touch('signature');
      setServerErrors((current) => ({ ...current, signature: undefined }));
      if (!next || !quoteSha256) {
        setSignatureState(null);
        if (!finished.current) updateTextDraft(userId, { signature: null });
        persistFile('signature', null);
        return;
      }
      const value = { ...next, sha256: quoteSha256 };
      setSignatureState(value);
      setTermsChanged(false);
      if (!finished.current) {
        updateTextDraft(userId, {
          signature: { sha256: value.sha256, width: value.width, height: value.height },
        });
      }
      persistFile('signature', { blob: value.blob, name: 'signature.png' });
    },
    [touch, quoteSha256, userId, persistFile],
  );

  /** The quote moved on (new day, changed terms): the old signature no longer binds; ask again. */
  const voidSignature = useCallback(() => {
    setSignatureState(null);
    setTermsChanged(true);
    updateTextDraft(userId, { signature: null });
    persistFile('signature', null);
  }, [userId, persistFile]);

  useEffect(() => {
    if (signature && quoteSha256 && signature.sha256 !== quoteSha256) voidSignature();
  }, [signature, quoteSha256, voidSignature]);

  const signed = signature !== null && signature.sha256 === quoteSha256;
  const clientErrors = useMemo(
    () =>
      validateApplication(values, {
        idFront: Boolean(pictures.idFront),
        idBack: Boolean(pictures.idBack),
        selfie: Boolean(pictures.selfie),
        signature: signed,
      }),
    [values, pictures, signed],
  );

  /** What to show under a field: the server's word first, a refused picture, then our own check once visited. */
  const errorOf = useCallback(
    (field: FieldName): ErrorInfo | null => {
      const server = serverErrors[field];
      if (server) return server;
      const picture = pictureErrors[field as PictureField];
      if (picture) return { code: picture };
      const client = clientErrors[field];
      return client && touched.has(field) ? { code: client } : null;
    },
    [serverErrors, pictureErrors, clientErrors, touched],
  );

  // A section is complete when neither our check nor the server's last answer finds a problem in it.
  const incomplete = useMemo(() => {
    const problems: Record<string, unknown> = { ...clientErrors };
    for (const [field, error] of Object.entries(serverErrors)) if (error) problems[field] = error;
    return incompleteSections(problems);
  }, [clientErrors, serverErrors]);

  const formData = useCallback(
    (sha256: string): FormData | null => {
      if (!signature || !pictures.idFront || !pictures.idBack || !pictures.selfie) return null;
      const form = new FormData();
      for (const [field, value] of Object.entries(values)) form.append(field, value.trim());
      form.append('amount', String(step1.amount));
      form.append('termMonths', String(step1.termMonths));
      if (step1.productVersionId) form.append('productVersionId', step1.productVersionId);
      form.append('disclosureSha256', sha256);
      for (const field of pictureFields) form.append(field, pictures[field]!.blob, pictures[field]!.name);
      form.append('signature', signature.blob, 'signature.png');
      return form;
    },
    [values, pictures, signature, step1],
  );

  /** After a successful submission nothing more is written to the draft. */
  const finish = useCallback(() => {
    finished.current = true;
  }, []);

  return {
    values,
    setValue,
    touch,
    touchSection,
    pictures,
    pickPicture,
    removePicture,
    signature,
    setSignature,
    voidSignature,
    termsChanged,
    errorOf,
    setServerErrors,
    incomplete,
    complete: (section: ApplicationSection) => !incomplete.includes(section),
    sections: sectionNames,
    filesRestored,
    filesNotKept,
    formData,
    finish,
  };
}

export type ApplicationForm = ReturnType<typeof useApplicationForm>;
