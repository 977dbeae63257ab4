import {
  REQUEST_SUGGESTIONS_LIMIT,
  type RequestSuggestion,
  type RequestSuggestions,
  type RequestSuggestionsQuery,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { knowsRequester, parseModel, predict, type Head, type SuggestionModel } from './request-suggestions.model.ts';
import * as repo from './request-suggestions.repository.ts';
import { retrainOrganization, trainOrganization } from './request-suggestions.training.ts';

// The parsed model per database and organization, kept while its `trained_at` is the stored one:
// each call reads that timestamp, so a model another instance retrained is picked up at once and
// only the parsing of the JSON is saved.
const parsed = new WeakMap<Db, Map<string, { trainedAt: number; model: SuggestionModel }>>();

interface Loaded {
  model: SuggestionModel;
  trainedOn: number;
  trainedAt: Date | null;
}

async function loadModel(ctx: Ctx, organizationId: string): Promise<Loaded> {
  const row = await repo.modelOf(ctx.db, organizationId);
  if (row?.model && row.trainedAt) {
    const perDb = parsed.get(ctx.db) ?? new Map();
    parsed.set(ctx.db, perDb);
    const hit = perDb.get(organizationId);
    if (hit && hit.trainedAt === row.trainedAt.getTime())
      return { model: hit.model, trainedOn: row.trainedOn, trainedAt: row.trainedAt };
    const model = parseModel(row.model);
    if (model) {
      perDb.set(organizationId, { trainedAt: row.trainedAt.getTime(), model });
      return { model, trainedOn: row.trainedOn, trainedAt: row.trainedAt };
    }
  }
  // Never trained (a new organization, or before the job's first pass), or an older shape: train
  // now and store it; if another call holds the row, use a model of our own for this answer.
  const stored = await retrainOrganization(ctx.db, organizationId, ctx.now, { force: true });
  const model = stored ? parseModel(stored.model) : null;
  if (stored && model) return { model, trainedOn: stored.trainedOn, trainedAt: stored.trainedAt };
  const fresh = await trainOrganization(ctx.db, organizationId);
  return { model: fresh.model, trainedOn: fresh.trainedOn, trainedAt: null };
}

function ranked(
  model: SuggestionModel,
  head: Head,
  text: string,
  requesterId: string,
  choices: { id: string; name: string; code?: string | null }[],
): RequestSuggestion[] {
  const byId = new Map(choices.map((c) => [c.id, c]));
  return predict(model, head, text, { requesterId, allowed: new Set(byId.keys()) })
    .slice(0, REQUEST_SUGGESTIONS_LIMIT)
    .map((r) => {
      const choice = byId.get(r.label)!;
      return {
        id: choice.id,
        name: choice.name,
        code: choice.code ?? null,
        probability: Math.round(r.probability * 10_000) / 10_000,
      };
    });
}

/**
 * The categories, vendors and departments the organization's history points to for the text,
 * ranked, among those the caller may put on a request: requests are raised in the caller's
 * organization, so that is the only one suggestions are for.
 */
export async function suggest(ctx: Ctx, query: RequestSuggestionsQuery): Promise<RequestSuggestions> {
  const auth = requireAuth(ctx);
  const organizationId = auth.organizationId;
  if (!organizationId) {
    throw new AppError('VALIDATION_ERROR', {
      message: 'Your account does not belong to an organization; ask an administrator to assign one',
    });
  }
  if (query.organizationId && query.organizationId !== organizationId) {
    throw new AppError('FORBIDDEN', {
      message: 'Suggestions are for requests in your own organization, the only one you raise requests in',
    });
  }
  const { model, trainedOn, trainedAt } = await loadModel(ctx, organizationId);
  const choices = await repo.usableChoices(ctx.db, organizationId, ctx.now.toISOString().slice(0, 10));
  const personal = knowsRequester(model, auth.userId);
  // A requester without history gets the organization's figures: their id matches no one.
  const requesterId = personal ? auth.userId : '';
  return {
    organizationId,
    categories: ranked(model, 'category', query.text, requesterId, choices.categories),
    vendors: ranked(model, 'vendor', query.text, requesterId, choices.vendors),
    departments: ranked(model, 'department', query.text, requesterId, choices.departments),
    personal,
    trainedOn,
    trainedAt: trainedAt ? trainedAt.toISOString() : null,
  };
}
