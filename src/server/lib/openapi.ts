import { z } from 'zod';

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(
      z.string(),
      z.object({
        code: z.string(),
        message: z.string(),
        params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      }),
    ),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  }),
});

/** Documented error answers shared by every route (all errors have the same body). */
export const errorResponses = {
  '4xx': errorBodySchema,
  '5xx': errorBodySchema,
} as const;
