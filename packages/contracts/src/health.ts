import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });
export const readyResponse = z.object({
  /** degraded: the database could not be confirmed in time (down, or every connection busy). */
  status: z.enum(['ready', 'not_ready', 'degraded']),
  /** unknown: no answer within the readiness deadline. */
  database: z.enum(['up', 'down', 'unknown']),
  migrations: z.object({ applied: z.number(), expected: z.number() }),
  /** Why the instance is not ready, for a person reading a probe's log. */
  reason: z.string().optional(),
  /** PostgreSQL: connections open, idle and callers waiting for one. */
  pool: z
    .object({
      max: z.number(),
      total: z.number(),
      idle: z.number(),
      waiting: z.number(),
      /** The share of the pool transactions may hold, how many do, and how many wait for a slot. */
      transactions: z.object({ max: z.number(), busy: z.number(), waiting: z.number() }).optional(),
    })
    .optional(),
});
export const errorResponse = z.object({
  message: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});
