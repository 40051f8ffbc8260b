import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { ErrorCode } from '../../domain/errors';
import { type Language, languages } from '../../domain/languages';
import { errorResponses } from '../lib/openapi';
import type { App } from '../lib/types';

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

/** What a PDF route declares of itself: who may read it, where the API docs list it, and what it sends. */
interface PdfRoute<P extends z.ZodType> {
  guard: preValidationAsyncHookHandler;
  tag: string;
  summary: string;
  /** The 200 answer's description. */
  answer: string;
  params?: P;
  /** The error a malformed request answers (an id that is no id: not found). */
  inputErrorCode?: ErrorCode;
}

/**
 * A GET route that answers a generated PDF in the `?lang=` asked (`pdfLanguage`), as a download no cache
 * keeps (`sendPdf`). `render` makes the document for the request's (typed) params.
 */
export function pdfRoute<P extends z.ZodType = z.ZodObject>(
  app: App,
  url: string,
  route: PdfRoute<P>,
  render: (
    request: FastifyRequest<{ Params: z.infer<P> }>,
    language: Language,
  ) => Promise<{ filename: string; pdf: Buffer | Uint8Array }>,
) {
  app.get(
    url,
    {
      preValidation: route.guard,
      config: { inputErrorCode: route.inputErrorCode },
      schema: {
        tags: [route.tag],
        summary: route.summary,
        ...(route.params ? { params: route.params } : {}),
        querystring: z.object({ lang: pdfLanguage }),
        response: pdfResponse(route.answer),
      },
    },
    async (request, reply) =>
      sendPdf(
        reply,
        await render(request as unknown as FastifyRequest<{ Params: z.infer<P> }>, request.query.lang),
      ),
  );
}
