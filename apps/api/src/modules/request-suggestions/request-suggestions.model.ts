// The smart form's model: multinomial naive Bayes over the words of past requests' titles and
// descriptions, one head each for category, vendor and department, learned per organization.
// A requester's own history shifts the prior (people keep buying from their own department's
// categories and vendors); without it the organization's frequencies are the prior. Pure
// functions: no database, so the job, the service and the cross-validation share them.

export const MODEL_VERSION = 2;
export const HEADS = ['category', 'vendor', 'department'] as const;
export type Head = (typeof HEADS)[number];

/** One past request as the model learns from it. */
export interface TrainingExample {
  text: string;
  requesterId: string;
  category: string | null;
  vendor: string | null;
  department: string | null;
}

interface LabelStats {
  /** Requests with this label. */
  docs: number;
  /** Tokens seen in them, all together. */
  tokens: number;
  counts: Record<string, number>;
}

interface HeadModel {
  docs: number;
  labels: Record<string, LabelStats>;
}

export interface SuggestionModel {
  version: typeof MODEL_VERSION;
  documents: number;
  vocabulary: number;
  heads: Record<Head, HeadModel>;
  /** Per requester, how often each label was theirs. */
  requesters: Record<string, Record<Head, Record<string, number>>>;
  /** Per head, the weight of the words against the prior (see TEXT_WEIGHTS). */
  textWeight: Record<Head, number>;
}

export interface Ranked {
  label: string;
  probability: number;
}

// Laplace smoothing of word counts, and how many of a requester's own requests weigh as much as
// the organization's prior (a handful of own requests already dominates, as it should).
const ALPHA = 0.5;
const PERSONAL_WEIGHT = 3;
// How much the words may weigh against the prior: each head's weight is chosen at training time
// by an inner cross-validation (the one with the smallest held-out log loss), so words that do
// not predict a field (the demo's vendors are drawn at random) stop making its suggestions look
// certain, while words that do keep their full weight.
export const TEXT_WEIGHTS = [1, 0.5, 0.25, 0.1, 0.05] as const;
const INNER_FOLDS = 3;

const STOP_WORDS = new Set(
  'a an and are as at be by for from in into is it of on or our the this that to up we with our my new per via'.split(
    ' ',
  ),
);

/** Lower case, accents stripped, split on anything not a letter or digit, stop words dropped, crudely stemmed. */
export function tokenize(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const out: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** A light suffix stripper: enough to make "licences"/"licence" and "tickets"/"ticket" one word. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

function emptyHead(): HeadModel {
  return { docs: 0, labels: {} };
}

/** Word and label counts, every head's words at full weight. */
function count(examples: readonly TrainingExample[]): SuggestionModel {
  const heads: Record<Head, HeadModel> = { category: emptyHead(), vendor: emptyHead(), department: emptyHead() };
  const requesters: SuggestionModel['requesters'] = {};
  const vocabulary = new Set<string>();
  for (const example of examples) {
    const tokens = tokenize(example.text);
    for (const t of tokens) vocabulary.add(t);
    const own = (requesters[example.requesterId] ??= { category: {}, vendor: {}, department: {} });
    for (const head of HEADS) {
      const label = example[head];
      if (!label) continue;
      const model = heads[head];
      model.docs += 1;
      const stats = (model.labels[label] ??= { docs: 0, tokens: 0, counts: {} });
      stats.docs += 1;
      stats.tokens += tokens.length;
      for (const t of tokens) stats.counts[t] = (stats.counts[t] ?? 0) + 1;
      own[head][label] = (own[head][label] ?? 0) + 1;
    }
  }
  return {
    version: MODEL_VERSION,
    documents: examples.length,
    vocabulary: vocabulary.size,
    heads,
    requesters,
    textWeight: { category: 1, vendor: 1, department: 1 },
  };
}

export function train(examples: readonly TrainingExample[]): SuggestionModel {
  const model = count(examples);
  if (examples.length < INNER_FOLDS * 5) return model;
  // Held-out log loss of each candidate weight, over inner folds (round-robin, reproducible).
  const loss = Object.fromEntries(HEADS.map((h) => [h, TEXT_WEIGHTS.map(() => 0)])) as Record<Head, number[]>;
  for (let fold = 0; fold < INNER_FOLDS; fold++) {
    const inner = count(examples.filter((_, i) => i % INNER_FOLDS !== fold));
    examples.forEach((example, i) => {
      if (i % INNER_FOLDS !== fold) return;
      const tokens = tokenize(example.text);
      for (const head of HEADS) {
        const truth = example[head];
        if (!truth || !inner.heads[head].labels[truth]) continue;
        const parts = scoreParts(inner, head, tokens, { requesterId: example.requesterId });
        TEXT_WEIGHTS.forEach((w, k) => {
          const p = normalize(parts, w).find((r) => r.label === truth)?.probability ?? 0;
          loss[head][k]! -= Math.log(Math.max(p, 1e-9));
        });
      }
    });
  }
  for (const head of HEADS) {
    const best = loss[head].indexOf(Math.min(...loss[head]));
    model.textWeight[head] = TEXT_WEIGHTS[best] ?? 1;
  }
  return model;
}

/** A stored model this code can read, or null (an older shape is retrained rather than misread). */
export function parseModel(value: unknown): SuggestionModel | null {
  if (!value || typeof value !== 'object') return null;
  const model = value as Partial<SuggestionModel>;
  if (model.version !== MODEL_VERSION || !model.heads || !model.requesters || !model.textWeight) return null;
  return model as SuggestionModel;
}

/** Whether the requester has past requests the model learned from. */
export function knowsRequester(model: SuggestionModel, requesterId: string | null): boolean {
  return Boolean(requesterId && model.requesters[requesterId]);
}

export interface PredictOptions {
  requesterId?: string | null;
  /** Only these labels may be suggested (what the caller may use); all the model knows when absent. */
  allowed?: ReadonlySet<string>;
  /** Rank by the prior alone (the baseline the words are measured against). */
  priorOnly?: boolean;
}

interface ScorePart {
  label: string;
  logPrior: number;
  evidence: number;
}

function scoreParts(
  model: SuggestionModel,
  head: Head,
  tokens: readonly string[],
  options: PredictOptions,
): ScorePart[] {
  const hm = model.heads[head];
  const labels = Object.keys(hm.labels).filter((l) => !options.allowed || options.allowed.has(l));
  const known = options.priorOnly ? [] : tokens.filter((t) => isKnown(hm, t));
  const vocab = Math.max(1, model.vocabulary);
  const own = options.requesterId ? model.requesters[options.requesterId]?.[head] : undefined;
  const ownTotal = own ? Object.values(own).reduce((s, n) => s + n, 0) : 0;
  return labels.map((label) => {
    const stats = hm.labels[label]!;
    const orgPrior = stats.docs / hm.docs;
    const prior =
      ownTotal > 0 ? ((own![label] ?? 0) + PERSONAL_WEIGHT * orgPrior) / (ownTotal + PERSONAL_WEIGHT) : orgPrior;
    const denominator = Math.log(stats.tokens + ALPHA * vocab);
    let evidence = 0;
    for (const t of known) evidence += Math.log((stats.counts[t] ?? 0) + ALPHA) - denominator;
    return { label, logPrior: Math.log(prior), evidence };
  });
}

function normalize(parts: readonly ScorePart[], textWeight: number): Ranked[] {
  if (parts.length === 0) return [];
  const scores = parts.map((p) => p.logPrior + textWeight * p.evidence);
  const top = Math.max(...scores);
  const weights = scores.map((score) => Math.exp(score - top));
  const total = weights.reduce((s, w) => s + w, 0);
  return parts
    .map((p, i) => ({ label: p.label, probability: weights[i]! / total }))
    .sort((a, b) => b.probability - a.probability || a.label.localeCompare(b.label));
}

/**
 * The head's labels ranked by posterior probability given the text, renormalized over the
 * allowed labels. Words the organization never used carry no evidence and are skipped.
 */
export function predict(model: SuggestionModel, head: Head, text: string, options: PredictOptions = {}): Ranked[] {
  return normalize(scoreParts(model, head, tokenize(text), options), model.textWeight[head]);
}

function isKnown(hm: HeadModel, token: string): boolean {
  for (const stats of Object.values(hm.labels)) if (stats.counts[token] !== undefined) return true;
  return false;
}

// ---------------------------------------------------------------- cross-validation

export interface Accuracy {
  /** Held-out requests with a label for this head. */
  evaluated: number;
  top1: number;
  top3: number;
  /** The same with the prior alone (no words): what the words add is the difference. */
  baselineTop1: number;
  baselineTop3: number;
}

export interface CrossValidation {
  folds: number;
  requests: number;
  heads: Record<Head, Accuracy>;
}

/**
 * k-fold cross-validation: each request is held out once, the model trained on the other folds
 * predicts its labels from `queryOf(example)` (what a requester would have typed). Folds are
 * assigned round-robin in the given order, so the figures are reproducible.
 */
export function crossValidate<T extends TrainingExample>(
  examples: readonly T[],
  options: {
    folds?: number;
    queryOf?: (example: T) => string;
    /** Ignore who asked (a requester without history). */ anonymous?: boolean;
  } = {},
): CrossValidation {
  const folds = options.folds ?? 5;
  const queryOf = options.queryOf ?? ((e: T) => e.text);
  const hits = Object.fromEntries(
    HEADS.map((h) => [h, { evaluated: 0, top1: 0, top3: 0, baselineTop1: 0, baselineTop3: 0 }]),
  ) as Record<Head, Accuracy>;
  for (let fold = 0; fold < folds; fold++) {
    const trainSet = examples.filter((_, i) => i % folds !== fold);
    const testSet = examples.filter((_, i) => i % folds === fold);
    const model = train(trainSet);
    for (const example of testSet) {
      for (const head of HEADS) {
        const truth = example[head];
        if (!truth) continue;
        const h = hits[head];
        h.evaluated += 1;
        const requesterId = options.anonymous ? null : example.requesterId;
        const ranked = predict(model, head, queryOf(example), { requesterId });
        const base = predict(model, head, '', { requesterId, priorOnly: true });
        if (ranked[0]?.label === truth) h.top1 += 1;
        if (ranked.slice(0, 3).some((r) => r.label === truth)) h.top3 += 1;
        if (base[0]?.label === truth) h.baselineTop1 += 1;
        if (base.slice(0, 3).some((r) => r.label === truth)) h.baselineTop3 += 1;
      }
    }
  }
  for (const head of HEADS) {
    const h = hits[head];
    const n = Math.max(1, h.evaluated);
    h.top1 /= n;
    h.top3 /= n;
    h.baselineTop1 /= n;
    h.baselineTop3 /= n;
  }
  return { folds, requests: examples.length, heads: hits };
}
