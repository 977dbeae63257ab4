// The optional wording model: a local OpenAI-compatible endpoint stands in for it. It is sent only
// the question and the answer the caller reads, its wording is kept only when every figure
// survives, and an endpoint that fails or is slow changes nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDeps } from '../../src/lib/deps.ts';
import { createEventBus } from '../../src/lib/events.ts';
import { freshDatabase, login, type Session } from '../helpers.ts';
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from '@outlay/db';

let mode: 'reword' | 'change-a-figure' | 'fail' = 'reword';
const seen: { auth?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
let model: Server;
let app: FastifyInstance;
let handle: DbHandle;
let events: ReturnType<typeof createEventBus>;
let grace: Session;
let rita: Session;

beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ auth: req.headers.authorization, body });
      if (mode === 'fail') {
        res.writeHead(500).end('{}');
        return;
      }
      const answer = String(body.messages[1].content).split('Answer: ')[1]!;
      const figures = answer.match(/\d[\d,.]*\d|\d/g) ?? [];
      const content = mode === 'reword' ? `In short: ${answer}` : `Roughly ${figures.length ? '1.2M' : '7'} in all.`;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const port = (model.address() as AddressInfo).port;
  handle = await freshDatabase();
  events = createEventBus(handle);
  await events.ready;
  const deps = await createDeps(handle, {
    events,
    llm: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'test-key', model: 'stand-in' },
  });
  app = await buildApp({ deps });
  await app.ready();
  [grace, rita] = [await login(app, 'grace'), await login(app, 'rita')];
});
afterAll(async () => {
  await app.close();
  await events.close();
  await handle.close();
  await new Promise((resolve) => model.close(resolve));
});

const ask = async (s: Session, question: string) => {
  const res = await app.inject({ method: 'POST', url: '/api/ai/copilot', headers: s.headers, payload: { question } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { answer: string; table?: { rows: { cells: string[] }[] } };
};

describe('the wording model', () => {
  it('rewords an answer with its figures kept, sent only the question and that answer', async () => {
    mode = 'reword';
    seen.length = 0;
    const a = await ask(grace, 'Top 3 vendors this year');
    expect(a.answer).toMatch(/^In short: Top 3 vendors by spend/);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.auth).toBe('Bearer test-key');
    expect(seen[0]!.body.model).toBe('stand-in');
    expect(seen[0]!.body.messages[1]!.content).toBe(
      `Question: Top 3 vendors this year\n\nAnswer: ${a.answer.replace(/^In short: /, '')}`,
    );
    // The table is never sent: only what the answer says.
    expect(a.table!.rows.length).toBeGreaterThan(0);
  });

  it('keeps the answer as written when the model changes a figure', async () => {
    mode = 'change-a-figure';
    const a = await ask(grace, 'How much did we spend this year?');
    expect(a.answer).toMatch(/^All organizations of the group spent \$[\d,]+\.\d{2} in \d{4} to date/);
  });

  it('keeps the answer as written when the model fails', async () => {
    mode = 'fail';
    const a = await ask(grace, 'How much did we spend this year?');
    expect(a.answer).toMatch(/^All organizations of the group spent/);
  });

  it('is not asked about a refusal or a question it cannot answer', async () => {
    mode = 'reword';
    seen.length = 0;
    expect((await ask(rita, 'How much did the company spend this year?')).answer).toMatch(
      /^You may not see spend figures/,
    );
    expect((await ask(rita, 'Tell me a joke')).answer).toMatch(/^I could not tell/);
    expect(seen).toHaveLength(0);
  });
});
