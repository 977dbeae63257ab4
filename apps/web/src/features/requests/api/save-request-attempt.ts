import type { QueryClient } from '@tanstack/react-query';
import type { RequestDetail } from '@outlay/contracts/requests';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { requestDetailQueryOptions } from './get-request';
import { invalidateRequests } from './keys';
import { submitRequest } from './submit-request';
import { isApiError } from '@/lib/api-error';

/**
 * What a form remembers between its attempts to save one request: the draft a failed attempt
 * already created (the next one updates it), and the keys that make a retried create or submit
 * do nothing twice.
 */
export interface SaveAttempt {
  requestId: string | null;
  createKey: string | null;
  submitKey: string | null;
}

export type SaveStage = 'save' | 'upload' | 'submit';

/** An attempt that stopped at `stage`: the stages before it are done and stay done. */
export class SaveAttemptError extends Error {
  constructor(
    readonly stage: SaveStage,
    readonly failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/**
 * Saves the draft (create, or update the one an earlier attempt made), attaches its files, and
 * submits it when asked; then refreshes the request lists and returns the request as stored.
 */
export async function runSaveAttempt(
  state: SaveAttempt,
  queryClient: QueryClient,
  steps: {
    create: (idempotencyKey: string) => Promise<{ id: string }>;
    update: (requestId: string) => Promise<unknown>;
    upload: (requestId: string) => Promise<void>;
    submit: boolean;
  },
): Promise<RequestDetail> {
  let stage: SaveStage = 'save';
  try {
    if (!state.requestId) {
      state.createKey ??= newIdempotencyKey();
      const created = await steps.create(state.createKey);
      state.requestId = created.id;
      state.createKey = null;
    } else {
      await steps.update(state.requestId);
    }
    const id = state.requestId;
    stage = 'upload';
    await steps.upload(id);
    if (steps.submit) {
      stage = 'submit';
      state.submitKey ??= newIdempotencyKey();
      await submitRequest(id, state.submitKey);
      state.submitKey = null;
    }
    await invalidateRequests(queryClient);
    return await queryClient.fetchQuery({ ...requestDetailQueryOptions(id), staleTime: 0 });
  } catch (error) {
    // A definite answer from the server ends that step's attempt; a lost connection keeps its key for the retry.
    if (isApiError(error)) {
      if (stage === 'save') state.createKey = null;
      if (stage === 'submit') state.submitKey = null;
    }
    throw new SaveAttemptError(stage, error);
  }
}
