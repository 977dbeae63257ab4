// The detectors: each turns the repository's candidates into findings (evidence, statistic,
// words, and the policy rule the finding could become). Statistics in findings.statistics.ts.
import { createHash } from 'node:crypto';
import Decimal from 'decimal.js';
import { serverFormat, type FindingKind, type FindingSeverity, type PolicyRuleForm } from '@outlay/contracts';
import { addMoney } from '@outlay/contracts/money';
import type { Db } from '@outlay/db';
import { similarity } from '../policies/index.ts';
import * as repo from './findings.repository.ts';
import { countryOf, offDayShare, publicHolidays } from '@outlay/db/business-days';
import {
  benford,
  binomialUpperTail,
  CHI_SQUARE_8DF_1PCT,
  OUTLIER_Z,
  outlierBound,
  runsWithin,
} from './findings.statistics.ts';

/** A category needs this many requests in the window before one of them can stand out. */
export const OUTLIER_MIN_COUNT = 8;
/** Same vendor and amount within this many days, with similar words: a likely duplicate. */
export const DUPLICATE_DAYS = 7;
/** Title and description at least this similar (the duplicate rule's default). */
export const DUPLICATE_SIMILARITY = 0.5;
/** "Just under" a threshold: from this share of it up to it. */
export const SPLIT_SHARE = 0.8;
export const SPLIT_DAYS = 7;
/** A requester's weekend and holiday requests are unusual at this binomial tail or below, with at least TIMING_MIN_OFF of them. */
export const TIMING_P = 0.01;
export const TIMING_MIN_REQUESTS = 5;
export const TIMING_MIN_OFF = 3;
/** At most this many findings of one kind (the strongest first). */
export const PER_KIND = 200;

export interface Draft {
  key: string;
  kind: FindingKind;
  severity: FindingSeverity;
  title: string;
  detail: string;
  organizationId: string | null;
  score: number;
  /** Newest first is decided when shown; all of the finding's requests (Benford: the newest 50). */
  requestIds: string[];
  requestCount: number;
  rule: PolicyRuleForm | null;
  ruleSuggestion: string | null;
}

export interface Org {
  id: string;
  name: string;
  currency: string;
  holidays: string[];
  offShare: number;
}

function hashKey(kind: FindingKind, parts: readonly string[]): string {
  return `${kind}:${createHash('sha256')
    .update([...parts].sort().join(','))
    .digest('hex')
    .slice(0, 24)}`;
}

const day = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);

export async function organizationsWithHolidays(db: Db, from: string, to: string): Promise<Map<string, Org>> {
  const rows = await repo.organizationAddresses(db);
  return new Map(
    rows.map((o) => {
      const country = countryOf(o);
      const holidays = country ? publicHolidays(country, from, to) : [];
      return [
        o.id,
        { id: o.id, name: o.name, currency: o.currency, holidays, offShare: offDayShare(holidays, from, to, country) },
      ];
    }),
  );
}

export async function detectOutliers(db: Db, w: repo.Window, orgs: Map<string, Org>): Promise<Draft[]> {
  const rows = await repo.outliers(db, w, { z: OUTLIER_Z, minCount: OUTLIER_MIN_COUNT, limit: PER_KIND });
  return rows.map((o) => {
    const z = (0.6745 * (o.value - o.median)) / o.mad;
    const org = orgs.get(o.organizationId);
    const currency = org?.currency ?? 'USD';
    const limit = new Decimal(outlierBound(o.median, o.mad)).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2);
    const median = new Decimal(o.median).toDecimalPlaces(2).toFixed(2);
    return {
      key: `outlier:${o.id}`,
      kind: 'outlier' as const,
      severity: z >= 10 ? 'high' : z >= 6 ? 'medium' : 'low',
      title: `Unusually large ${o.categoryName} request`,
      detail:
        `Robust z-score ${serverFormat.number(z, 1)} against ${serverFormat.plural(o.n, `${o.categoryName} request`)} of ${org?.name ?? 'its organization'} ` +
        `(median ${serverFormat.money(median, currency)}); above ${serverFormat.money(limit, currency)} is an outlier here (z > ${OUTLIER_Z}).`,
      organizationId: o.organizationId,
      score: z,
      requestIds: [o.id],
      requestCount: 1,
      rule: {
        organizationId: o.organizationId,
        name: `${o.categoryName} above ${serverFormat.money(limit, currency)}`.slice(0, 120),
        description: `From a finding on Smart Analytics: ${o.categoryName} requests above the outlier bound of ${org?.name ?? 'the organization'}.`,
        kind: 'category_limit_request',
        action: 'justify',
        params: { categoryId: o.categoryId, limit },
      },
      ruleSuggestion: `Category limit per request: ${o.categoryName} above ${serverFormat.money(limit, currency)} in ${org?.name ?? 'the organization'}`,
    };
  });
}

export async function detectDuplicates(db: Db, w: repo.Window, orgs: Map<string, Org>): Promise<Draft[]> {
  const pairs = await repo.duplicatePairs(db, w, { days: DUPLICATE_DAYS, limit: PER_KIND * 5 });
  const out: Draft[] = [];
  for (const p of pairs) {
    const s = similarity(p.textA, p.textB);
    if (s < DUPLICATE_SIMILARITY) continue;
    out.push({
      key: `duplicate:${[p.a, p.b].sort().join(':')}`,
      kind: 'duplicate',
      severity: s >= 0.8 && p.days <= 2 ? 'high' : 'medium',
      title: 'Likely duplicate requests',
      detail: `Same vendor and amount ${p.days === 0 ? 'on the same day' : `${serverFormat.plural(p.days, 'day')} apart`}, with ${serverFormat.percent(Math.round(s * 100), 0)} of their words in common.`,
      organizationId: p.organizationId,
      score: s,
      requestIds: [p.a, p.b],
      requestCount: 2,
      rule: {
        organizationId: p.organizationId,
        name: `Duplicate requests in ${orgs.get(p.organizationId)?.name ?? 'the organization'}`.slice(0, 120),
        description: 'From a likely-duplicate finding on Smart Analytics.',
        kind: 'duplicate',
        action: 'justify',
        params: { days: DUPLICATE_DAYS, similarity: DUPLICATE_SIMILARITY },
      },
      ruleSuggestion: `Duplicate detection: same vendor and amount within ${serverFormat.plural(DUPLICATE_DAYS, 'day')} in ${orgs.get(p.organizationId)?.name ?? 'the organization'}`,
    });
    if (out.length >= PER_KIND) break;
  }
  return out;
}

export async function detectSplits(db: Db, w: repo.Window, orgs: Map<string, Org>): Promise<Draft[]> {
  const thresholds = await repo.thresholds(db);
  const near = await repo.nearThreshold(db, w, thresholds, SPLIT_SHARE);
  const groups = new Map<string, { by: 'requester' | 'vendor'; subjectId: string; rows: repo.NearThresholdRow[] }>();
  for (const row of near) {
    for (const [by, subjectId] of [
      ['requester', row.requesterId],
      ['vendor', row.vendorId],
    ] as const) {
      if (!subjectId) continue;
      const k = `${row.organizationId}|${row.threshold}|${by}|${subjectId}`;
      const g = groups.get(k) ?? { by, subjectId, rows: [] };
      g.rows.push(row);
      groups.set(k, g);
    }
  }
  const seen = new Map<string, Draft>();
  for (const g of groups.values()) {
    for (const run of runsWithin(g.rows, (x) => day(x.day), SPLIT_DAYS)) {
      if (run.length < 2) continue;
      const threshold = run[0]!.threshold;
      const total = addMoney(...run.map((x) => x.amountOrg));
      if (total.lte(threshold)) continue;
      const ids = [...new Set(run.map((x) => x.id))];
      const key = hashKey('split', ids);
      if (seen.has(key)) continue;
      const org = orgs.get(run[0]!.organizationId);
      const currency = org?.currency ?? 'USD';
      const lo = new Decimal(threshold).times(SPLIT_SHARE).toDecimalPlaces(2).toFixed(2);
      const t = new Decimal(threshold).toFixed(2);
      seen.set(key, {
        key,
        kind: 'split',
        severity: run.length >= 3 ? 'high' : 'medium',
        title: `${run.length} requests just under the ${serverFormat.money(t, currency)} approval threshold`,
        detail:
          `${serverFormat.plural(run.length, 'request')} ${g.by === 'requester' ? 'by one requester' : 'to one vendor'} within ${serverFormat.plural(SPLIT_DAYS, 'day')}, ` +
          `each between ${serverFormat.money(lo, currency)} and ${serverFormat.money(t, currency)}, together ${serverFormat.money(total.toFixed(2), currency)}: one purchase split to stay under the threshold?`,
        organizationId: run[0]!.organizationId,
        score: run.length,
        requestIds: ids,
        requestCount: ids.length,
        rule: {
          organizationId: run[0]!.organizationId,
          name: `Just under the ${serverFormat.money(t, currency)} approval threshold`.slice(0, 120),
          description: `From a split-purchase finding on Smart Analytics: requests between ${SPLIT_SHARE * 100}% of the threshold and the threshold need a justification.`,
          kind: 'custom',
          action: 'justify',
          conditions: {
            op: 'and',
            items: [
              { field: 'amountOrg', operator: 'gte', value: lo },
              { field: 'amountOrg', operator: 'lt', value: t },
            ],
          },
        },
        ruleSuggestion: `Custom rule: amounts from ${serverFormat.money(lo, currency)} up to ${serverFormat.money(t, currency)} in ${org?.name ?? 'the organization'} need a justification`,
      });
    }
  }
  return [...seen.values()].sort((a, b) => b.score - a.score).slice(0, PER_KIND);
}

export async function detectTiming(db: Db, w: repo.Window, orgs: Map<string, Org>): Promise<Draft[]> {
  const holidays = [...orgs.values()].flatMap((o) => o.holidays.map((d) => ({ organizationId: o.id, day: d })));
  const counts = await repo.timingCounts(db, w, holidays, TIMING_MIN_REQUESTS);
  const flagged = counts
    .map((c) => ({ ...c, p: binomialUpperTail(c.k, c.n, orgs.get(c.organizationId)?.offShare ?? 2 / 7) }))
    .filter((c) => c.k >= TIMING_MIN_OFF && c.p <= TIMING_P)
    .sort((a, b) => a.p - b.p)
    .slice(0, PER_KIND);
  const names = await repo.namesOf(
    db,
    'users',
    flagged.map((c) => c.requesterId),
  );
  const offDay = await repo.offDayRequests(db, w, flagged, holidays);
  const out: Draft[] = [];
  for (const c of flagged) {
    const org = orgs.get(c.organizationId);
    const ids = offDay
      .filter((x) => x.requesterId === c.requesterId && x.organizationId === c.organizationId)
      .map((x) => x.id);
    const expected = org?.offShare ?? 2 / 7;
    out.push({
      key: hashKey('timing', [c.requesterId, ...ids]),
      kind: 'timing',
      severity: c.p <= 0.001 ? 'high' : 'medium',
      title: `${names.get(c.requesterId) ?? 'A requester'} spends on weekends and holidays`,
      detail:
        `${c.k} of ${serverFormat.plural(c.n, 'request')} are dated on a weekend or public holiday${org?.holidays.length ? '' : ' (weekends only: no holiday calendar for the organization’s country)'}, ` +
        `where ${serverFormat.percent(Math.round(expected * 1000) / 10)} of days are; by chance that happens with probability ${c.p < 0.0001 ? 'below 0.01%' : serverFormat.percent(Math.round(c.p * 10000) / 100, 2)}.`,
      organizationId: c.organizationId,
      score: c.k / c.n,
      requestIds: ids,
      requestCount: ids.length,
      rule: {
        organizationId: c.organizationId,
        name: `Weekend expenses in ${org?.name ?? 'the organization'}`.slice(0, 120),
        description: 'From an unusual-timing finding on Smart Analytics.',
        kind: 'weekend_spend',
        action: 'justify',
      },
      ruleSuggestion: `Weekend spend: expenses dated on a Saturday or Sunday in ${org?.name ?? 'the organization'} need a justification`,
    });
  }
  return out;
}

export async function detectBenford(
  db: Db,
  w: repo.Window,
  minCount: number,
): Promise<{ drafts: Draft[]; tested: number }> {
  const drafts: Draft[] = [];
  let tested = 0;
  for (const by of ['requester', 'vendor'] as const) {
    const rows = await repo.firstDigits(db, w, by, minCount);
    const bySubject = new Map<string, number[]>();
    for (const row of rows) {
      const counts = bySubject.get(row.subjectId) ?? Array.from({ length: 9 }, () => 0);
      counts[row.digit - 1] = row.count;
      bySubject.set(row.subjectId, counts);
    }
    tested += bySubject.size;
    // The strongest deviations first, at most PER_KIND: each one reads its requests.
    const deviating = [...bySubject]
      .map(([subjectId, counts]) => ({ subjectId, result: benford(counts) }))
      // Nigrini's MAD bands measure how far; with a hundred-odd amounts that distance is also
      // reached by chance, so the chi-square must say the deviation is real (1% level) too.
      .filter(
        (x): x is { subjectId: string; result: NonNullable<ReturnType<typeof benford>> } =>
          !!x.result && x.result.conformity === 'nonconformity' && x.result.chiSquare > CHI_SQUARE_8DF_1PCT,
      )
      .sort((a, b) => b.result.mad - a.result.mad)
      .slice(0, PER_KIND);
    const names = await repo.namesOf(
      db,
      by === 'requester' ? 'users' : 'vendors',
      deviating.map((x) => x.subjectId),
    );
    for (const { subjectId, result } of deviating) {
      const { ids, total } = await repo.requestsOfSubject(db, w, by, subjectId, 50);
      const name = names.get(subjectId) ?? (by === 'requester' ? 'A requester' : 'A vendor');
      drafts.push({
        key: `benford:${by}:${subjectId}`,
        kind: 'benford',
        severity: result.mad > 0.022 ? 'high' : 'medium',
        title: `${name}: amounts do not follow Benford’s law`,
        detail:
          `First digits of ${serverFormat.plural(result.n, 'amount')} ${by === 'requester' ? 'raised by' : 'billed by'} ${name}: mean absolute deviation ${serverFormat.number(result.mad, 4)} ` +
          `(above Nigrini’s 0.015: nonconformity), chi-square ${serverFormat.number(result.chiSquare, 1)} (above ${CHI_SQUARE_8DF_1PCT}, the 1% level at 8 degrees of freedom); most over-represented first digit: ${result.mostExcessDigit}.`,
        organizationId: null,
        score: result.mad,
        requestIds: ids,
        requestCount: total,
        rule: null,
        ruleSuggestion: null,
      });
    }
  }
  return { drafts, tested };
}
