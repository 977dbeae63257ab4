import { describe, expect, it } from 'vitest';
import {
  crossValidate,
  knowsRequester,
  parseModel,
  predict,
  stem,
  tokenize,
  train,
  type TrainingExample,
} from './request-suggestions.model.ts';

const ex = (
  text: string,
  requesterId: string,
  category: string,
  vendor: string | null,
  department: string,
): TrainingExample => ({ text, requesterId, category, vendor, department });

const history: TrainingExample[] = [
  ex('Flights to Rotterdam for the hub review', 'ana', 'travel', null, 'ops'),
  ex('Hotel for the planning offsite', 'ana', 'travel', null, 'ops'),
  ex('Train tickets for the supplier audit', 'ben', 'travel', null, 'sales'),
  ex('Laptops for new joiners', 'ben', 'hardware', 'dell', 'it'),
  ex('Docking stations and monitors', 'cem', 'hardware', 'dell', 'it'),
  ex('Replacement laptop batteries', 'cem', 'hardware', 'dell', 'it'),
  ex('Design tool licences', 'cem', 'software', 'adobe', 'it'),
  ex('Analytics seats renewal licence', 'ana', 'software', 'tableau', 'ops'),
  ex('Printer paper and toner', 'ana', 'office', 'staples', 'ops'),
  ex('Stationery restock, paper and pens', 'ben', 'office', 'staples', 'sales'),
];

describe('tokenize', () => {
  it('lowercases, strips accents and punctuation, drops stop words and numbers, stems plurals', () => {
    expect(tokenize('Café crème for the TEAM, 2 Tickets!')).toEqual(['cafe', 'creme', 'team', 'ticket']);
    expect(tokenize('Déjà-vu: Übernachtung in München')).toEqual(['deja', 'vu', 'ubernachtung', 'munchen']);
  });
  it('makes plural and singular one word', () => {
    expect(stem('licences')).toBe(stem('licence'));
    expect(stem('batteries')).toBe('battery');
    expect(stem('glass')).toBe('glass');
    expect(stem('bus')).toBe('bus');
  });
});

describe('naive Bayes suggestions', () => {
  const model = train(history);

  it('ranks the category whose past requests share the words first, probabilities summing to one', () => {
    const ranked = predict(model, 'category', 'new laptops for the team');
    expect(ranked[0]!.label).toBe('hardware');
    expect(ranked.reduce((s, r) => s + r.probability, 0)).toBeCloseTo(1, 10);
    expect(predict(model, 'category', 'train tickets to Hamburg')[0]!.label).toBe('travel');
    expect(predict(model, 'category', 'Licences for the design team')[0]!.label).toBe('software');
  });

  it('suggests vendors from requests that had one', () => {
    expect(predict(model, 'vendor', 'toner cartridges')[0]!.label).toBe('staples');
    expect(predict(model, 'vendor', 'monitors').map((r) => r.label)).not.toContain(null);
  });

  it("leans on the requester's own history for the department", () => {
    expect(predict(model, 'department', 'paper', { requesterId: 'ben' })[0]!.label).toBe('sales');
    expect(predict(model, 'department', 'paper', { requesterId: 'ana' })[0]!.label).toBe('ops');
    expect(knowsRequester(model, 'ben')).toBe(true);
    expect(knowsRequester(model, 'zoe')).toBe(false);
  });

  it('without known words falls back to the prior: the most frequent labels', () => {
    const ranked = predict(model, 'category', 'zzz qqq');
    expect(
      ranked
        .map((r) => r.label)
        .slice(0, 2)
        .sort(),
    ).toEqual(['hardware', 'travel']);
  });

  it('only ranks allowed labels, renormalized', () => {
    const ranked = predict(model, 'category', 'new laptops', { allowed: new Set(['travel', 'office']) });
    expect(ranked.map((r) => r.label).sort()).toEqual(['office', 'travel']);
    expect(ranked.reduce((s, r) => s + r.probability, 0)).toBeCloseTo(1, 10);
    expect(predict(model, 'category', 'laptops', { allowed: new Set() })).toEqual([]);
  });

  it('survives a JSON round trip and refuses an unknown shape', () => {
    const stored = parseModel(JSON.parse(JSON.stringify(model)));
    expect(stored).not.toBeNull();
    expect(predict(stored!, 'category', 'laptops')).toEqual(predict(model, 'category', 'laptops'));
    expect(parseModel({ version: 0 })).toBeNull();
    expect(parseModel(null)).toBeNull();
  });

  it('an empty history suggests nothing', () => {
    expect(predict(train([]), 'category', 'laptops')).toEqual([]);
  });
});

describe('the weight of the words', () => {
  it('is learned per field: full where the words predict it, small where they do not', () => {
    const words = ['laptop', 'flight', 'toner', 'webinar'];
    const cats = ['hardware', 'travel', 'office', 'marketing'];
    const vendorsList = ['v1', 'v2', 'v3', 'v4', 'v5'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const examples = Array.from({ length: 120 }, (_, i) => {
      const k = i % 4;
      return ex(`${words[k]} order ${i}`, `r${i % 6}`, cats[k]!, vendorsList[Math.floor(next() * 5)]!, 'ops');
    });
    const model = train(examples);
    expect(model.textWeight.category).toBe(1);
    expect(model.textWeight.vendor).toBeLessThan(0.5);
    // The vendors' probabilities then stay near their frequencies instead of claiming certainty.
    expect(predict(model, 'vendor', 'laptop order')[0]!.probability).toBeLessThan(0.5);
    expect(predict(model, 'category', 'laptop order')[0]).toMatchObject({ label: 'hardware' });
    expect(predict(model, 'category', 'laptop order')[0]!.probability).toBeGreaterThan(0.9);
  });
});

describe('crossValidate', () => {
  it('holds each request out once and reports top-1 and top-3 against the prior', () => {
    const repeated = [...history, ...history, ...history];
    const cv = crossValidate(repeated, { folds: 3 });
    expect(cv.requests).toBe(30);
    expect(cv.heads.category.evaluated).toBe(30);
    expect(cv.heads.vendor.evaluated).toBe(21);
    expect(cv.heads.category.top1).toBe(1);
    expect(cv.heads.category.top3).toBeGreaterThanOrEqual(cv.heads.category.top1);
    expect(cv.heads.category.baselineTop1).toBeLessThan(cv.heads.category.top1);
  });
});
