// Schemas for delegations (out-of-office): a delegator's approvals go to a delegate for a period.
import { z } from 'zod';

export const DELEGATION_STATE_VALUES = ['scheduled', 'active', 'ended', 'revoked'] as const;
export const delegation = z.object({
  id: z.string(),
  delegator: z.object({ id: z.string(), name: z.string() }),
  delegate: z.object({ id: z.string(), name: z.string() }),
  startsAt: z.string(),
  endsAt: z.string(),
  reason: z.string().nullable(),
  state: z.enum(DELEGATION_STATE_VALUES),
  /** Waiting items moved to the delegate so far. */
  movedCount: z.number().int(),
  createdAt: z.string(),
});
export type Delegation = z.infer<typeof delegation>;
export const delegationList = z.object({ items: z.array(delegation) });

export const delegationInput = z
  .object({
    /** Someone else's out-of-office needs approvals.manage; absent: the caller's own. */
    delegatorId: z.uuid().nullable().optional(),
    delegateId: z.uuid('Choose who approves while you are away'),
    startsAt: z.iso.datetime({ offset: true, error: 'Choose when it starts' }),
    endsAt: z.iso.datetime({ offset: true, error: 'Choose when it ends' }),
    reason: z.string().trim().max(500).nullable().optional(),
  })
  .refine((d) => new Date(d.endsAt).getTime() > new Date(d.startsAt).getTime(), {
    message: 'The end must be after the start',
    path: ['endsAt'],
  });
export type DelegationInput = z.infer<typeof delegationInput>;

/** `?all=true` (approvals.manage): every delegation in scope instead of the caller's own. */
export const delegationListQuery = z.object({ all: z.enum(['true', 'false']).optional() });
