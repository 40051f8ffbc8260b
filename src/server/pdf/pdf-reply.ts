import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { languages } from '../../domain/languages';
import { errorResponses } from '../lib/openapi';

/** `?lang=` of every PDF route: the document's language, English unless asked. */
export const pdfLanguage = z.enum(languages).default('en');

/** The OpenAPI answers of a PDF route. */
export const pdfResponse = (description: string) => ({
  200: z.any().describe(description),
  ...errorResponses,
});

/** Sends a generated PDF as a download that no cache keeps (it holds personal and money data). */
export function sendPdf(
  reply: FastifyReply,
  { filename, pdf }: { filename: string; pdf: Buffer | Uint8Array },
) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}
