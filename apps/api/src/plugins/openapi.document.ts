import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { organizationTreeNode, policyConditionGroup } from '@outlay/contracts';
import { type SecurityRequirement } from '../lib/openapi-security.ts';
import { accessPermissions, apiKeyScopeOf, type Access, type ApiKeyScope } from './auth.ts';

/**
 * How the OpenAPI document is made from the routes: each route's zod schemas become JSON Schema
 * 2020-12 (OpenAPI 3.1, where `null` is a type of its own), and each operation gets its
 * `operationId` and `security` from the route's URL and declared access.
 */

/**
 * Recursive schemas cannot be written inline: each is a named component that the schemas using
 * it (and itself) point at. A new recursive schema (`z.lazy` that refers to itself) goes here,
 * or its `$ref` is left dangling.
 */
const NAMED_SCHEMAS = {
  OrganizationTreeNode: organizationTreeNode,
  PolicyConditionGroup: policyConditionGroup,
} satisfies Record<string, z.ZodType>;

// The zod transform reads ids from zod's global registry; building a second app in the same
// process (tests) finds them already there.
for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) {
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
}

/** The schemes of `components.securitySchemes`, by the names operations use. */
export const SECURITY_SCHEMES = {
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The access token of a session (POST /api/auth/login, POST /api/auth/refresh), always sent with the X-Device-ID of that session.',
  },
  deviceId: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Device-ID',
    description:
      'The device the session was signed in on (returned at sign-in); a session token from another device is refused.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'olk_…',
    description:
      'An API key (Integrations): acts as its creator, within the permissions chosen for it, on the operations that list this scheme; the roles name the permissions the key must hold. Not accepted by sign-in, session, profile, calendar, search, dashboard, assistant and API-key calls, nor by what needs a recent password.',
  },
} as const;

/**
 * Who may call a route, from its declared access: nobody in particular for a public route; a
 * session, or an API key where the route admits one. The permission a route needs (and the key
 * scope that admits a key) is given as the requirement's role (OpenAPI 3.1 allows roles for any
 * scheme).
 */
export function securityOf(access: Access | undefined, url: string, apiKeyScope?: ApiKeyScope): SecurityRequirement[] {
  if (access === undefined || access === 'public') return [];
  // A route open to any one of several permissions has one requirement per permission (OpenAPI
  // reads the list of requirements as alternatives, and the roles of one requirement as all needed).
  const alternatives = (permissions: readonly string[]) =>
    permissions.length === 0 ? [[]] : permissions.map((p) => [p]);
  const roleSets = alternatives(accessPermissions(access));
  const sessions = roleSets.map((roles) => ({ sessionToken: roles, deviceId: [] }));
  const keyScope = apiKeyScopeOf(access, apiKeyScope, url);
  if (!keyScope) return sessions;
  const keys = roleSets.flatMap((roles) =>
    alternatives(accessPermissions(keyScope)).map((scope) => ({ apiKey: [...new Set([...roles, ...scope])] })),
  );
  const unique = [...new Map(keys.map((k) => [k.apiKey.join(' '), k])).values()];
  return [...sessions, ...unique];
}

/**
 * A stable operationId from the method and the route: `GET /api/requests` is `getRequests`,
 * `POST /api/requests/:id/approve` is `postRequestsIdApprove`. A route may set its own
 * (`schema.operationId`).
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api(?=\/|$)/, '')
    .replace(/\([^)]*\)/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });
const zodComponents = createJsonSchemaTransformObject({});

export const transform: SwaggerTransform = (document) => {
  const result = zodTransform(document);
  const schema = result.schema as Record<string, unknown> & { hide?: boolean };
  if (schema.hide) return result;
  const { route } = document;
  const method = Array.isArray(route.method) ? route.method[0]! : route.method;
  schema.operationId ??= operationIdOf(method, route.url);
  schema.security ??= securityOf(route.config?.access, route.url, route.config?.apiKeyScope);
  return result;
};

const isEmptySchema = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * The named schemas as components, less the variants (input or output) no operation uses; and a
 * union with a branch that takes anything (`z.unknown().nullable()`) is written as what it is,
 * any value.
 */
export const transformObject: SwaggerTransformObject = (document) => {
  const object = zodComponents(document);
  const components = (object as { components?: { schemas?: Record<string, unknown> } }).components;
  const schemas = components?.schemas;
  if (!schemas) return object;
  const used = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const schema = value as { anyOf?: unknown };
    if (Array.isArray(schema.anyOf) && schema.anyOf.some(isEmptySchema)) delete schema.anyOf;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!used.has(name) && name in schemas) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit({ ...object, components: { ...components, schemas: undefined } });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return object;
};
