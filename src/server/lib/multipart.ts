import type { FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../domain/errors';

export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
}

export interface ParsedMultipart {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

/**
 * Reads a whole multipart form into memory under explicit limits (file size and count, field count and
 * size, total parts). A file over the size limit is reported against its own field; a truncated text value
 * is refused rather than silently cut.
 */
export async function readMultipart(
  request: FastifyRequest,
  limits: MultipartLimits,
  codes: { fileTooLarge: ErrorCode; invalid: ErrorCode },
  allowedFiles: readonly string[],
): Promise<ParsedMultipart> {
  if (!request.isMultipart()) throw new AppError(codes.invalid);
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  let currentFile: string | null = null;
  try {
    // Inside the try: a missing boundary is thrown by the parser as soon as the parts are asked for.
    const parts = request.parts({
      limits: { ...limits, parts: limits.fields + limits.files, headerPairs: 100 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        currentFile = part.fieldname;
        if (!allowedFiles.includes(part.fieldname) || part.fieldname in files) {
          await part.toBuffer().catch(() => {});
          throw new AppError(codes.invalid);
        }
        files[part.fieldname] = await part.toBuffer();
        currentFile = null;
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw new AppError(codes.invalid);
        if (typeof part.value !== 'string' || part.fieldname in fields) throw new AppError(codes.invalid);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        codes.fileTooLarge,
        currentFile ? { fields: { [currentFile]: codes.fileTooLarge } } : {},
      );
    }
    // Everything else the parser (@fastify/multipart, busboy) can say is about the body as sent: no or a
    // wrong boundary, a truncated or malformed part, too many parts or fields. All of it is bad input.
    request.log.debug({ err: error }, 'unreadable multipart body');
    throw new AppError(codes.invalid);
  }
  return { fields, files };
}
