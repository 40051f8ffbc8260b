import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends a private stored file (a document, a complaint's picture) to be shown in the browser, never kept by a
 * cache: only its owner and staff may read it.
 */
export function sendStoredFile(
  reply: FastifyReply,
  file: { stream: Readable; contentType: string; size: number },
) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', 'inline')
    .send(file.stream);
}
