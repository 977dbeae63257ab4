// Cross-validation of the smart form's suggestions on the demo history: 5-fold per organization
// (each organization has its own model), top-1 and top-3 accuracy for category, vendor and
// department, beside the prior alone. `npm run bench:suggestions` prints the table.
//
// The query is the held-out request's title, what a requester has typed when the suggestions
// matter; the seeded descriptions end with the category's and department's names, so querying
// with them would measure the seed, not the model (reported as the second table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, departments, organizations, spendingRequests, users, vendors } from '@outlay/db';
import {
  crossValidate,
  HEADS,
  train,
  type CrossValidation,
  type Head,
} from '../../src/modules/request-suggestions/request-suggestions.model.ts';
import { trainingRows } from '../../src/modules/request-suggestions/request-suggestions.repository.ts';
import { textOf } from '../../src/modules/request-suggestions/request-suggestions.training.ts';
import { createTestApp, type TestContext } from '../helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

interface Example {
  text: string;
  title: string;
  requesterId: string;
  category: string | null;
  vendor: string | null;
  department: string | null;
}

async function demoHistory(): Promise<Example[][]> {
  const orgs = await t.db.select({ id: organizations.id }).from(organizations);
  // The seed draws its requests from a fixed sequence, but the database gives every row a random
  // id: folds made by id, and ties between equally likely answers broken by id, differed from one
  // seeding to the next (top-3 category moved between 92.8% and 95.4%). Folds follow the request
  // number and the answers are named by their codes, so every run measures the same thing.
  const seqOf = new Map(
    (await t.db.select({ id: spendingRequests.id, seq: spendingRequests.seq }).from(spendingRequests)).map((r) => [
      r.id,
      r.seq,
    ]),
  );
  const keyOf = new Map<string, string>([
    ...(await t.db.select({ id: categories.id, key: categories.code }).from(categories)).map(
      (r) => [r.id, `category:${r.key}`] as const,
    ),
    ...(await t.db.select({ id: vendors.id, key: vendors.name }).from(vendors)).map(
      (r) => [r.id, `vendor:${r.key}`] as const,
    ),
    ...(await t.db.select({ id: departments.id, key: departments.code }).from(departments)).map(
      (r) => [r.id, `department:${r.key}`] as const,
    ),
    ...(await t.db.select({ id: users.id, key: users.username }).from(users)).map(
      (r) => [r.id, `user:${r.key}`] as const,
    ),
  ]);
  const stable = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? id));
  const perOrg: Example[][] = [];
  for (const org of orgs) {
    const rows = await trainingRows(t.db, org.id);
    rows.sort((a, b) => Number(seqOf.get(a.id)) - Number(seqOf.get(b.id)));
    perOrg.push(
      rows.map((r) => ({
        text: textOf(r),
        title: r.title,
        requesterId: stable(r.requesterId)!,
        category: stable(r.categoryId),
        vendor: stable(r.vendorId),
        department: stable(r.departmentId),
      })),
    );
  }
  return perOrg.filter((examples) => examples.length >= 10);
}

/** The per-organization figures pooled, weighted by the requests each evaluated. */
function pooled(
  results: CrossValidation[],
): Record<Head, { evaluated: number; top1: number; top3: number; baselineTop1: number; baselineTop3: number }> {
  const out = {} as ReturnType<typeof pooled>;
  for (const head of HEADS) {
    const evaluated = results.reduce((s, r) => s + r.heads[head].evaluated, 0);
    const avg = (k: 'top1' | 'top3' | 'baselineTop1' | 'baselineTop3') =>
      results.reduce((s, r) => s + r.heads[head][k] * r.heads[head].evaluated, 0) / Math.max(1, evaluated);
    out[head] = {
      evaluated,
      top1: avg('top1'),
      top3: avg('top3'),
      baselineTop1: avg('baselineTop1'),
      baselineTop3: avg('baselineTop3'),
    };
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function print(label: string, figures: ReturnType<typeof pooled>) {
  console.log(`\n${label}`);
  console.table(
    Object.fromEntries(
      HEADS.map((h) => [
        h,
        {
          requests: figures[h].evaluated,
          top1: pct(figures[h].top1),
          top3: pct(figures[h].top3),
          'prior top1': pct(figures[h].baselineTop1),
          'prior top3': pct(figures[h].baselineTop3),
        },
      ]),
    ),
  );
}

describe('suggestions cross-validated on the demo history (5 folds per organization)', () => {
  it('suggests from the title typed: category far above the prior, department from the requester, vendor no worse than its frequencies', async () => {
    const history = await demoHistory();
    expect(history.length).toBeGreaterThanOrEqual(3);
    const byTitle = pooled(history.map((examples) => crossValidate(examples, { folds: 5, queryOf: (e) => e.title })));
    const anonymous = pooled(
      history.map((examples) => crossValidate(examples, { folds: 5, queryOf: (e) => e.title, anonymous: true })),
    );
    const byFullText = pooled(history.map((examples) => crossValidate(examples, { folds: 5 })));
    print("Query: the title, with the requester's own history", byTitle);
    console.log(
      'Weight of the words learned per organization (category, vendor, department):',
      history.map((examples) => Object.values(train(examples).textWeight).join(' / ')).join('; '),
    );
    print('Query: the title, organization-wide only (a requester without history)', anonymous);
    print('Query: title and seeded description (names the category and department)', byFullText);

    expect(byTitle.category.evaluated).toBeGreaterThan(300);
    expect(byTitle.category.top1).toBeGreaterThanOrEqual(0.9);
    // The misses are titles the organization never used before (words it has not seen).
    expect(byTitle.category.top3).toBeGreaterThanOrEqual(0.93);
    expect(byTitle.category.top1).toBeGreaterThan(byTitle.category.baselineTop1 + 0.3);
    // Who asks decides the department: the requester's history carries it.
    expect(byTitle.department.top1).toBeGreaterThanOrEqual(0.95);
    expect(byTitle.department.top3).toBeGreaterThanOrEqual(0.99);
    expect(anonymous.category.top1).toBeGreaterThanOrEqual(0.9);
    // The demo's vendors are drawn at random for each request: no words predict them, and the
    // words must not make the ranking worse than the vendors' frequencies.
    expect(byTitle.vendor.top3).toBeGreaterThanOrEqual(byTitle.vendor.baselineTop3 - 0.05);
  });
});
