import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  idParam,
  policyActiveInput,
  policyEvaluateInput,
  policyEvaluateResult,
  policyList,
  policyListQuery,
  policyOptions,
  policyRule,
  policyRuleInput,
  policyRuleVersions,
  policySimulateInput,
  policySimulateResult,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { getRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as service from './policies.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const access = { access: 'policies.manage' as const };
// The rules, their versions and the form's options: also for a settings reader, who changes none.
const read = { access: ['policies.manage', 'settings.read'] as const };
const tags = ['policies'];

export async function policiesRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listRoute(r, deps, '/api/policies', service.listRules, {
    config: read,
    tags,
    summary: "Expense policy rules in the caller's scope (list protocol), by priority",
    querystring: policyListQuery,
    response: { 200: policyList, ...errors },
  });
  r.get(
    '/api/policies/options',
    {
      config: read,
      schema: {
        tags,
        summary: 'Organizations, categories, vendors and departments to name in rule settings and conditions',
        response: { 200: policyOptions, ...errors },
      },
    },
    async (request) => service.options(contextOf(request, deps)),
  );
  r.post(
    '/api/policies/evaluate',
    {
      // Everyone raising a request sees the findings of their draft as they type.
      config: { access: 'requests.create' as const },
      schema: {
        tags,
        summary: 'Findings of the rules in force for a draft request form (same engine as submission); saves nothing',
        body: policyEvaluateInput,
        response: { 200: policyEvaluateResult, ...errors },
      },
    },
    async (request) => service.evaluateDraft(contextOf(request, deps), request.body),
  );
  r.post(
    '/api/policies/simulate',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Run a saved or unsaved rule against the requests submitted in the last N months: how many it would have flagged, with examples',
        body: policySimulateInput,
        response: { 200: policySimulateResult, ...errors },
      },
    },
    async (request) => service.simulate(contextOf(request, deps), request.body),
  );
  getVersionedRoute(r, deps, '/api/policies/:id', (ctx, { id }) => service.readRule(ctx, id), {
    config: read,
    tags,
    summary: 'One policy rule',
    params: idParam,
    response: { 200: policyRule, ...errors },
  });
  getRoute(r, deps, '/api/policies/:id/versions', (ctx, { id }) => service.ruleVersions(ctx, id), {
    config: read,
    tags,
    summary: 'Every version of a rule, newest first (snapshots)',
    params: idParam,
    response: { 200: policyRuleVersions, ...errors },
  });
  r.post(
    '/api/policies',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a policy rule (version 1)',
        body: policyRuleInput,
        response: { 201: policyRule, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await service.createRule(contextOf(request, deps), request.body))),
  );
  r.put(
    '/api/policies/:id',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Replace a rule; its version goes up and requests already checked keep the version they were checked against. With If-Match, only if the rule is still at that version (412 otherwise)',
        params: idParam,
        body: policyRuleInput,
        response: { 200: policyRule, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.updateRule(contextOf(request, deps), request.params.id, request.body, expectedVersion(request)),
      ),
  );
  r.patch(
    '/api/policies/:id/active',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Activate or deactivate a rule (a new version); with If-Match, only if the rule is still at that version (412 otherwise)',
        params: idParam,
        body: policyActiveInput,
        response: { 200: policyRule, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await service.setActive(
          contextOf(request, deps),
          request.params.id,
          request.body.active,
          expectedVersion(request),
        ),
      ),
  );
  r.delete(
    '/api/policies/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a rule no request was checked against (otherwise deactivate it)',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteRule(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
