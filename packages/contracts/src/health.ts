import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });
export const readyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['up', 'down']),
  migrations: z.object({ applied: z.number(), expected: z.number() }),
});
export const errorResponse = z.object({ message: z.string(), code: z.string().optional(), details: z.unknown().optional() });
