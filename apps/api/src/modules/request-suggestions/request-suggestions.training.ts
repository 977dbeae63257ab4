// Training the smart form's models: the job retrains each organization's when it is stale
// (nightly, or within the hour after new requests), claiming the row so one instance does it.
import type { Db } from '@outlay/db';
import type { AppDeps } from '../../lib/context.ts';
import { train, type SuggestionModel, type TrainingExample } from './request-suggestions.model.ts';
import * as repo from './request-suggestions.repository.ts';

/** What the model reads of a request: its title and description, as the requester typed them. */
export function textOf(row: { title: string; description: string | null }): string {
  return row.description ? `${row.title}\n${row.description}` : row.title;
}

export async function examplesOf(db: Db, organizationId: string): Promise<TrainingExample[]> {
  const rows = await repo.trainingRows(db, organizationId);
  return rows.map((r) => ({
    text: textOf(r),
    requesterId: r.requesterId,
    category: r.categoryId,
    vendor: r.vendorId,
    department: r.departmentId,
  }));
}

export async function trainOrganization(
  db: Db,
  organizationId: string,
): Promise<{ model: SuggestionModel; trainedOn: number }> {
  const examples = await examplesOf(db, organizationId);
  return { model: train(examples), trainedOn: examples.length };
}

function claimAndTrain(db: Db, organizationId: string, now: Date, force = false) {
  return repo.retrainIfStale(db, { organizationId, now, force }, async (tx) => {
    const { model, trainedOn } = await trainOrganization(tx, organizationId);
    return { model: model as unknown as Record<string, unknown>, trainedOn };
  });
}

/**
 * Retrains and stores the organization's model if it is stale (or `force`) and nobody else is
 * at it; the stored row, or null when it was fresh or claimed by another instance.
 */
export async function retrainOrganization(
  db: Db,
  organizationId: string,
  now: Date,
  options: { force?: boolean } = {},
) {
  await repo.ensureModelRows(db, organizationId);
  return claimAndTrain(db, organizationId, now, options.force);
}

/** The job: every organization's stale model retrained, each in its own short transaction. */
export async function retrainSuggestionModels(deps: Pick<AppDeps, 'db'>, now: Date): Promise<{ retrained: number }> {
  await repo.ensureModelRows(deps.db);
  let retrained = 0;
  for (const organizationId of await repo.organizationIds(deps.db)) {
    if (await claimAndTrain(deps.db, organizationId, now)) retrained += 1;
  }
  return { retrained };
}
