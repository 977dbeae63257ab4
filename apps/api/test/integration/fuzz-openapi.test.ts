import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { schema, users } from '@outlay/db';
import { createTestApp, login, nextIp, type Session, type TestContext } from '../helpers.ts';

/**
 * Hostile input never gives a 5xx. Every operation of the OpenAPI document is called with a
 * plausible request (real ids, well-formed values, as the owner or the admin), then once per
 * malformed value in each path parameter, query parameter and JSON body field: NUL bytes, lone
 * surrogates, impossible dates, malformed or huge amounts, over-long strings, wrong types, and a
 * body in another charset. Any 5xx fails with the operation, field, value and response.
 */

// A deliberately loose view of the OpenAPI document: it is walked, not trusted.
interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  nullable?: boolean;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface Failure {
  operation: string;
  field: string;
  value: string;
  status: number;
  body: string;
}

let t: TestContext;
const sessions: Record<string, Session> = {};
const ids = new Map<string, string>();

// Path segment or field name → the table whose first row's id stands in for it.
const TABLE_OF: Record<string, string> = {
  requests: 'spending_requests',
  requestId: 'spending_requests',
  organizations: 'organizations',
  organizationId: 'organizations',
  parentId: 'organizations',
  departments: 'departments',
  departmentId: 'departments',
  categories: 'categories',
  categoryId: 'categories',
  'fx-rates': 'fx_rates',
  vendors: 'vendors',
  vendorId: 'vendors',
  users: 'users',
  userId: 'users',
  delegateId: 'users',
  delegatorId: 'users',
  approverId: 'users',
  fallbackApproverId: 'users',
  assigneeId: 'users',
  sessions: 'sessions',
  'custom-roles': 'custom_roles',
  customRoleId: 'custom_roles',
  audit: 'audit_events',
  workflows: 'workflows',
  workflowId: 'workflows',
  delegations: 'delegations',
  'auto-approval-rules': 'auto_approval_rules',
  lines: 'budget_lines',
  budgetLineId: 'budget_lines',
  policies: 'policy_rules',
  notifications: 'notifications',
  'registration-requests': 'registration_requests',
  aid: 'request_attachments',
  stepId: 'approval_steps',
};

beforeAll(async () => {
  t = await createTestApp();
  const tables = Object.values(schema as Record<string, unknown>).filter((x): x is PgTable => is(x, PgTable));
  for (const table of tables) {
    const idColumn = (table as unknown as Record<string, unknown>).id;
    if (!idColumn) continue;
    const name = getTableName(table);
    // Someone other than the callers, so an accepted call never locks the fuzzer out.
    const rows =
      name === 'users'
        ? await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'carla'))
        : await t.db
            .select({ id: idColumn as typeof users.id })
            .from(table as typeof users)
            .limit(1);
    if (rows[0]) ids.set(name, String(rows[0].id));
  }
  sessions.olivia = await login(t.app, 'olivia');
  sessions.adam = await login(t.app, 'adam');
}, 120_000);
afterAll(async () => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function idFor(key: string): string | undefined {
  const table = TABLE_OF[key];
  return table ? (ids.get(table) ?? UNKNOWN_ID) : undefined;
}

function flatten(s: JsonSchema | undefined): JsonSchema {
  if (!s) return {};
  const branch = s.anyOf ?? s.oneOf;
  if (branch) {
    const concrete = branch.find((b) => b.type !== 'null') ?? branch[0]!;
    return { ...flatten(concrete), nullable: true };
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map(flatten), { ...s, allOf: undefined });
  return s;
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type);
const isDateLike = (name: string, s: JsonSchema) =>
  s.format === 'date' || /\\d\{4\}-/.test(s.pattern ?? '') || /date|^from$|^to$|month|start|end|effective/i.test(name);
const isAmountLike = (name: string, s: JsonSchema) =>
  /amount|limit|price|rate$|threshold|percent|total/i.test(name) || /\\d\{1,1?2\}/.test(s.pattern ?? '');
const isCurrencyLike = (name: string) => /currency|^base$|^quote$/i.test(name);

/** A well-formed value for a field, so that a single malformed field is what the server sees. */
function sample(name: string, raw: JsonSchema | undefined): unknown {
  const s = flatten(raw);
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = typeOf(s) ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(s.properties ?? {})) out[key] = sample(key, prop);
      return out;
    }
    case 'array':
      return s.minItems ? Array.from({ length: s.minItems }, () => sample(name, s.items)) : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    default: {
      if (s.format === 'uuid' || /Id$/.test(name)) return idFor(name) ?? UNKNOWN_ID;
      if (s.format === 'email') return 'fuzz@meridiangroup.com';
      if (s.format === 'date-time') return '2026-03-10T09:00:00.000Z';
      if (/month/i.test(name)) return '2026-03';
      if (isDateLike(name, s)) return '2026-03-10';
      if (isCurrencyLike(name)) return 'EUR';
      if (isAmountLike(name, s)) return '100.00';
      const base = 'Fuzz value';
      return base.padEnd(Math.max(s.minLength ?? 0, base.length), 'x').slice(0, s.maxLength ?? 200);
    }
  }
}

const TEXT_BAD: unknown[] = [
  'Fuzz\u0000value',
  'Fuzz\ud800value',
  '\udfffFuzz',
  'x'.repeat(20_000),
  12345,
  { nested: true },
];
const DATE_BAD = ['2026-02-30', '2026-13-01', '0000-00-00'];
const AMOUNT_BAD = ['', 'NaN', '1e309', 'Infinity', '-1', '999999999999.99', '99999999999999999999'];
const NUMBER_BAD: unknown[] = ['NaN', 1e308, -1, 1.5, 'abc', null];

/** Malformed values for one field, by its kind. */
function badValues(name: string, raw: JsonSchema | undefined, inQuery: boolean): unknown[] {
  const s = flatten(raw);
  const type = typeOf(s) ?? 'string';
  let values: unknown[];
  if (type === 'integer' || type === 'number') values = NUMBER_BAD;
  else if (type === 'boolean') values = ['yes', 0, 'Fuzz\u0000'];
  else if (type === 'array' || type === 'object') values = ['Fuzz\u0000value', 12345, null];
  else {
    values = [...TEXT_BAD];
    if (isDateLike(name, s)) values.push(...DATE_BAD);
    if (isAmountLike(name, s)) values.push(...AMOUNT_BAD);
    if (isCurrencyLike(name)) values.push('QQQ', 'nan', '\u0000\u0000\u0000');
  }
  // A query string carries text only; objects and numbers there are the same text again.
  return inQuery ? values.filter((v) => typeof v === 'string') : values;
}

interface Call {
  method: string;
  path: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  contentType?: string;
  rawBody?: Buffer;
}

/** Percent-encoding that also carries a lone surrogate, as the bytes a careless client would send (WTF-8). */
function encode(value: string): string {
  return value.replace(/[\s\S]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(ch);
  });
}

function urlOf(template: string, path: Record<string, string>, query: Record<string, string>): string {
  const url = template.replace(/\{(\w+)\}/g, (_, key: string) => encode(path[key] ?? '')).replace(/\/$/, '') || '/';
  const qs = Object.entries(query)
    .map(([key, value]) => `${encode(key)}=${encode(value)}`)
    .join('&');
  return qs ? `${url}?${qs}` : url;
}

const GUARD_MESSAGE = 'You do not have permission to do this';

async function send(template: string, call: Call) {
  const url = urlOf(template, call.path, call.query);
  const attempt = async (who: string) => {
    const res = await t.app.inject({
      method: call.method as 'GET',
      url,
      headers: {
        ...sessions[who]!.headers,
        ...(call.contentType
          ? { 'content-type': call.contentType }
          : call.body !== undefined
            ? { 'content-type': 'application/json' }
            : {}),
      },
      ...(call.rawBody
        ? { payload: call.rawBody }
        : call.body !== undefined
          ? { payload: JSON.stringify(call.body) }
          : {}),
      remoteAddress: nextIp(),
      payloadAsStream: true,
    });
    if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      res.stream().destroy();
      return { statusCode: res.statusCode, body: '' };
    }
    const body = await new Response(res.stream() as unknown as ReadableStream).text();
    return { statusCode: res.statusCode, body };
  };
  let res = await attempt('olivia');
  if (res.statusCode === 401) {
    // An accepted call may have ended the caller's own session (logout, revoke): sign in again.
    sessions.olivia = await login(t.app, 'olivia');
    res = await attempt('olivia');
  }
  if (res.statusCode === 403 && res.body.includes(GUARD_MESSAGE)) {
    res = await attempt('adam');
    if (res.statusCode === 401) {
      sessions.adam = await login(t.app, 'adam');
      res = await attempt('adam');
    }
  }
  return res;
}

function describeValue(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  return text.length > 60 ? `${text.slice(0, 60)}… (${text.length} chars)` : text;
}

/** Leaf paths of a JSON body: each one replaced in turn. Array items are reached through their first element. */
function leaves(
  name: string,
  raw: JsonSchema | undefined,
  prefix: string[] = [],
): { path: string[]; name: string; schema: JsonSchema }[] {
  const s = flatten(raw);
  const type = typeOf(s) ?? (s.properties ? 'object' : 'string');
  if (type === 'object' && s.properties) {
    return Object.entries(s.properties).flatMap(([key, prop]) => leaves(key, prop, [...prefix, key]));
  }
  if (type === 'array' && s.items) {
    const item = flatten(s.items);
    const itemType = typeOf(item) ?? (item.properties ? 'object' : 'string');
    const own = [{ path: prefix, name, schema: s }];
    if (itemType === 'object') return [...own, ...leaves(name, item, [...prefix, '0'])];
    return [...own, { path: [...prefix, '0'], name, schema: item }];
  }
  return [{ path: prefix, name, schema: s }];
}

function withValue(body: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(body) || head === '0') {
    const list = Array.isArray(body) ? [...body] : [];
    list[Number(head)] = withValue(list[Number(head)] ?? {}, rest, value);
    return list;
  }
  const obj = { ...((body as Record<string, unknown>) ?? {}) };
  obj[head!] = withValue(obj[head!], rest, value);
  return obj;
}

it('no operation answers a malformed value with a 5xx', { timeout: 240_000 }, async () => {
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
  const failures: Failure[] = [];
  let calls = 0;
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const operation = `${method.toUpperCase()} ${template}`;
      const params = op.parameters ?? [];
      const path: Record<string, string> = {};
      for (const p of params.filter((x) => x.in === 'path')) {
        const segment = template.split('/').at(template.split('/').indexOf(`{${p.name}}`) - 1) ?? '';
        path[p.name] = p.name === 'role' ? 'requester' : (idFor(p.name === 'id' ? segment : p.name) ?? UNKNOWN_ID);
      }
      const query: Record<string, string> = {};
      for (const p of params.filter((x) => x.in === 'query' && x.required))
        query[p.name] = String(sample(p.name, p.schema));
      const json = op.requestBody?.content?.['application/json']?.schema;
      const body = json ? sample('body', json) : undefined;
      const base: Call = { method: method.toUpperCase(), path, query, body };

      const check = async (field: string, value: unknown, call: Call) => {
        calls++;
        const res = await send(template, call);
        if (res.statusCode >= 500)
          failures.push({
            operation,
            field,
            value: describeValue(value),
            status: res.statusCode,
            body: res.body.slice(0, 300),
          });
      };

      for (const p of params.filter((x) => x.in === 'path')) {
        for (const value of badValues(p.name, p.schema, true)) {
          await check(`path.${p.name}`, value, { ...base, path: { ...path, [p.name]: String(value) } });
        }
      }
      for (const p of params.filter((x) => x.in === 'query')) {
        const good = String(sample(p.name, p.schema));
        for (const value of badValues(p.name, p.schema, true)) {
          await check(`query.${p.name}`, value, { ...base, query: { ...query, [p.name]: String(value) } });
        }
        // The well-formed value too: an optional filter the plausible call leaves out may still reach SQL.
        await check(`query.${p.name}`, good, { ...base, query: { ...query, [p.name]: good } });
      }
      if (json) {
        for (const leaf of leaves('body', json)) {
          for (const value of badValues(leaf.name, leaf.schema, false)) {
            await check(`body.${leaf.path.join('.') || '(root)'}`, value, {
              ...base,
              body: withValue(body, leaf.path, value),
            });
          }
        }
        // The same well-formed body in a charset the server does not read.
        await check('content-type', 'charset=latin1', {
          ...base,
          body: undefined,
          rawBody: Buffer.from(JSON.stringify(body), 'latin1'),
          contentType: 'application/json; charset=latin1',
        });
      }
    }
  }
  const report = failures.map((f) => `${f.operation} ${f.field}=${f.value} → ${f.status} ${f.body}`).join('\n');
  console.info(`fuzz: ${calls} calls, ${failures.length} answered 5xx`);
  expect(failures, `${failures.length} of ${calls} malformed calls answered 5xx:\n${report}`).toEqual([]);
});
