import SwaggerParser from '@apidevtools/swagger-parser';
import { BaseResolver, createConfig, lintFromString, type Source } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../helpers.ts';

/**
 * The OpenAPI document at /api/docs/json is what client generators, gateways and API tools
 * read: it must be a valid OpenAPI document whose every `$ref` resolves, and pass Redocly's
 * recommended rules without an error (each operation has an operationId and says its security).
 */

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
};

/** Refuses every external fetch: the document is linted as it is, offline. */
class OfflineResolver extends BaseResolver {
  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    throw new Error(`the linter tried to load ${absoluteRef}`);
  }
}

let t: TestContext;
let body: string;
let doc: OpenApiDocument;
const operations: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  body = res.body;
  doc = JSON.parse(body) as OpenApiDocument;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) operations.push({ method, path, op });
  }
});
afterAll(async () => t.close());

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document whose every $ref resolves (swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // validate() dereferences the object it is given; it gets a copy, and no file or URL.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never, { resolve: { external: false } });
    expect(Object.keys(validated.paths ?? {}).length).toBe(Object.keys(doc.paths).length);
  });

  it('passes Redocly’s recommended rules with no error, fetching nothing', async () => {
    const fetches: string[] = [];
    vi.stubGlobal('fetch', async (url: unknown) => {
      fetches.push(String(url));
      throw new Error('no network in this test');
    });
    try {
      const config = await createConfig({ extends: ['recommended'] });
      const problems = await lintFromString({
        source: body,
        absoluteRef: '/api/docs/openapi.json',
        config,
        externalRefResolver: new OfflineResolver(),
      });
      const errors = problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
      const warnings = problems.filter((p) => p.severity === 'warn');
      const counts = new Map<string, number>();
      for (const w of warnings) counts.set(w.ruleId, (counts.get(w.ruleId) ?? 0) + 1);
      const byRule = [...counts].map(([rule, n]) => `${rule} ${n}`);
      console.log(`Redocly recommended: ${errors.length} errors, ${warnings.length} warnings (${byRule.join(', ')})`);
      expect(errors).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fetches).toEqual([]);
  });

  it('gives every operation a unique operationId made from its method and route', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const id = (method: string, path: string) => doc.paths[path]?.[method]?.operationId;
    expect(id('get', '/api/requests')).toBe('getRequests');
    expect(id('post', '/api/registration-requests/{id}/approve')).toBe('postRegistrationRequestsIdApprove');
    expect(id('post', '/api/auth/2fa/setup')).toBe('postAuth2faSetup');
    expect(id('get', '/api/fx-rates')).toBe('getFxRates');
  });

  it('says on every operation who may call it: a session, an API key where keys work, or nobody in particular', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      sessionToken: { type: 'http', scheme: 'bearer' },
      deviceId: { type: 'apiKey', in: 'header', name: 'X-Device-ID' },
      apiKey: { type: 'http', scheme: 'bearer' },
    });
    expect(
      operations.filter(({ op }) => !Array.isArray(op.security)).map(({ method, path }) => `${method} ${path}`),
    ).toEqual([]);
    const security = (method: string, path: string) => doc.paths[path]?.[method]?.security;
    // Public.
    expect(security('post', '/api/auth/login')).toEqual([]);
    expect(security('get', '/api/health')).toEqual([]);
    // Public, and reads a session when one is sent.
    expect(security('post', '/api/auth/change-password')).toEqual([{}, { sessionToken: [], deviceId: [] }]);
    // A permission: a session or an API key that holds it.
    expect(security('post', '/api/registration-requests/{id}/approve')).toEqual([
      { sessionToken: ['users.manage'], deviceId: [] },
      { apiKey: ['users.manage'] },
    ]);
    // Any signed-in user.
    expect(security('get', '/api/organizations/tree')).toEqual([{ sessionToken: [], deviceId: [] }, { apiKey: [] }]);
    // What an API key never reaches: a session only.
    expect(security('get', '/api/api-keys')).toEqual([{ sessionToken: ['integrations.manage'], deviceId: [] }]);
    expect(security('get', '/api/profile')).toEqual([{ sessionToken: ['profile.manage'], deviceId: [] }]);
  });

  it('documents recursive schemas (organization tree, policy conditions) as components that refer to themselves', () => {
    const schemas = doc.components.schemas ?? {};
    const tree = doc.paths['/api/organizations/tree']!.get!.responses['200']!.content!['application/json']!.schema;
    expect(tree).toMatchObject({
      properties: { roots: { items: { $ref: '#/components/schemas/OrganizationTreeNode' } } },
    });
    expect(schemas.OrganizationTreeNode).toMatchObject({
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/OrganizationTreeNode' } } },
    });
    const group = JSON.stringify(schemas.PolicyConditionGroup);
    expect(group).toContain('"$ref":"#/components/schemas/PolicyConditionGroup"');
    expect(JSON.stringify(schemas.PolicyConditionGroupInput)).toContain(
      '"$ref":"#/components/schemas/PolicyConditionGroupInput"',
    );
    // Nothing points at an unnamed schema, and no component goes unused.
    expect(body, 'a recursive zod schema is missing from NAMED_SCHEMAS (plugins/openapi.document.ts)').not.toMatch(
      /#\/components\/schemas\/schema\d/,
    );
    for (const name of Object.keys(schemas)) expect(body, name).toContain(`"#/components/schemas/${name}"`);
    // null is a type of its own in 3.1: no `nullable` keyword is left from 3.0.
    expect(body).not.toContain('"nullable"');
    const detail = doc.paths['/api/requests/{id}']!.get!.responses['200']!.content!['application/json']!.schema as {
      properties: { vendorName: unknown; audit: { items: { properties: { before: unknown; after: unknown } } } };
    };
    // A nullable string is a string or null.
    expect(detail.properties.vendorName).toEqual({ type: ['string', 'null'] });
    // A nullable value of any shape (an audit event's before and after) is any value.
    expect(detail.properties.audit.items.properties.before).toEqual({});
    expect(detail.properties.audit.items.properties.after).toEqual({});
  });
});
