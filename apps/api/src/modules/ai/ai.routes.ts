import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { copilotAnswer, copilotInput, errorResponse, parsedExpense, parseExpenseInput } from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import * as service from './ai.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
const tags = ['ai'];

export async function aiRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/ai/parse-expense',
    {
      // The draft becomes a request: only those who raise requests parse one.
      config: { access: 'requests.create' },
      schema: {
        tags,
        summary:
          'A typed or spoken sentence read into a draft request: amount, currency, date, category and vendor (offline)',
        body: parseExpenseInput,
        response: { 200: parsedExpense, ...errors },
      },
    },
    async (request) => service.parseExpense(contextOf(request, deps), request.body),
  );
  r.post(
    '/api/ai/copilot',
    {
      // Everyone may ask; each kind of question checks the permission of the screen behind it.
      config: { access: 'authenticated', apiKeyScope: false },
      schema: {
        tags,
        summary:
          "A question about the live data answered with exact figures, a table or chart and links, within the caller's permissions and scope (offline)",
        body: copilotInput,
        response: { 200: copilotAnswer, ...errors },
      },
    },
    async (request) => service.askCopilot(contextOf(request, deps), request.body),
  );
}
