import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dismissFindingInput,
  errorResponse,
  findingList,
  findingListQuery,
  findingRuleInput,
  policyRule,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './findings.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export async function findingsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/findings',
    {
      // Read in the caller's reporting scope, like the reports.
      config: { access: 'reports.read' },
      schema: {
        tags: ['findings'],
        summary:
          'Findings in the requests of the last months: amount outliers, likely duplicates, split purchases, unusual timing, Benford deviations',
        querystring: findingListQuery,
        response: { 200: findingList, ...errors },
      },
    },
    async (request) => service.listFindings(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/findings/refresh',
    {
      config: { access: 'reports.read' },
      schema: {
        tags: ['findings'],
        summary:
          'Recompute now the findings of those of your organizations whose requests changed since they were computed (the job otherwise does within minutes of a change), and list them',
        querystring: findingListQuery,
        response: { 200: findingList, ...errors },
      },
    },
    async (request) => service.refreshFindings(contextOf(request, deps), request.query),
  );
  r.post(
    '/api/findings/dismissals',
    {
      // Reviewing findings is an audit task; the service also asks for reports.read (the finding must be in scope).
      config: { access: 'audit.read' },
      schema: {
        tags: ['findings'],
        summary: 'Dismiss a finding with the reason (audited); not one about your own requests',
        body: dismissFindingInput,
        response: { 201: z.object({ key: z.string(), dismissed: z.literal(true) }), ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.dismissFinding(contextOf(request, deps), request.body)),
  );
  r.post(
    '/api/findings/rules',
    {
      config: { access: 'policies.manage' },
      schema: {
        tags: ['findings'],
        summary:
          'Turn a finding into a policy rule of the kind that fits it (the finding is then dismissed with the rule’s name)',
        body: findingRuleInput,
        response: { 201: policyRule, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.findingToRule(contextOf(request, deps), request.body)),
  );
}
