import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './lib/context.ts';
import { requireUtf8Body, validatorCompiler } from './lib/input.ts';
import { registerJsonBodyParser } from './lib/json-body.ts';
import { deferredChildLogger } from './lib/logging.ts';
import authPlugin from './plugins/auth.ts';
import compressionPlugin from './plugins/compression.ts';
import errorsPlugin from './plugins/errors.ts';
import metricsPlugin from './plugins/metrics.ts';
import openapiPlugin from './plugins/openapi.ts';
import securityPlugin from './plugins/security.ts';
import webPlugin from './plugins/web.ts';
import { authRoutes } from './modules/auth/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { profileRoutes } from './modules/profile/index.ts';
import { receiptsRoutes } from './modules/receipts/index.ts';
import { registrationRequestsRoutes } from './modules/registration-requests/index.ts';
import { organizationsRoutes } from './modules/organizations/index.ts';
import { intercompanyLinksRoutes } from './modules/intercompany-links/index.ts';
import { departmentsRoutes } from './modules/departments/index.ts';
import { categoriesRoutes } from './modules/categories/index.ts';
import { fxRatesRoutes } from './modules/fx-rates/index.ts';
import { vendorsRoutes } from './modules/vendors/index.ts';
import { usersRoutes } from './modules/users/index.ts';
import { securityRoutes } from './modules/security/index.ts';
import { rolesRoutes } from './modules/roles/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { requestsRoutes } from './modules/requests/requests.routes.ts';
import { requestTransitionsRoutes } from './modules/requests/requests.transitions.routes.ts';
import { approvalsRoutes } from './modules/approvals/index.ts';
import { workflowsRoutes } from './modules/workflows/index.ts';
import { routingRoutes } from './modules/routing/index.ts';
import { delegationsRoutes } from './modules/delegations/index.ts';
import { budgetsRoutes } from './modules/budgets/index.ts';
import { policiesRoutes } from './modules/policies/index.ts';
import { notificationsRoutes } from './modules/notifications/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { payrollRoutes } from './modules/payroll/index.ts';
import { consolidationRoutes } from './modules/consolidation/index.ts';
import { accountingRoutes } from './modules/accounting/index.ts';
import { financialFlowRoutes } from './modules/financial-flow/index.ts';
import { analyticsRoutes } from './modules/analytics/index.ts';
import { payablesRoutes } from './modules/payables/index.ts';
import { reportsRoutes } from './modules/reports/index.ts';
import { aiRoutes } from './modules/ai/index.ts';
import { tutorialsRoutes } from './modules/tutorials/index.ts';
import { searchRoutes } from './modules/search/index.ts';
import { onboardingRoutes } from './modules/onboarding/index.ts';
import { featureSuggestionsRoutes } from './modules/feature-suggestions/index.ts';
import { communicationsRoutes } from './modules/communications/index.ts';
import { errorReportsRoutes, recordServerError } from './modules/error-reports/index.ts';
import { calendarRoutes } from './modules/calendar/index.ts';
import { backupsRoutes } from './modules/backups/index.ts';
import { apiKeysRoutes } from './modules/api-keys/index.ts';
import { webhooksRoutes } from './modules/webhooks/index.ts';
import { requestSuggestionsRoutes } from './modules/request-suggestions/index.ts';
import { findingsRoutes } from './modules/findings/index.ts';
import { forecastsRoutes } from './modules/forecasts/index.ts';
import { coachingRoutes } from './modules/coaching/index.ts';

export interface BuildOptions {
  deps: AppDeps;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: boolean | string;
  webDist?: string;
  /** Serve /metrics on this app behind this bearer token (METRICS_TOKEN without METRICS_PORT). */
  metricsToken?: string;
}

export { LOG_REDACT, loggerOptions } from './lib/logging.ts';

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    childLoggerFactory: deferredChildLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1_048_576,
  });
  registerJsonBodyParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Fastify never reads a GET or HEAD body: their routes go without the check (and without a
  // preParsing step at all, on the path every page takes).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const own =
      route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
    route.preParsing = [requireUtf8Body, ...own];
  });

  await app.register(errorsPlugin, {
    onServerError: (request, error) => recordServerError(options.deps, request, error),
  });
  await app.register(metricsPlugin, { metrics: options.deps.metrics, token: options.metricsToken });
  await app.register(securityPlugin);
  // Before any route: it attaches itself to each route as the route is added.
  await app.register(compressionPlugin);
  await app.register(authPlugin, { deps: options.deps });
  await app.register(openapiPlugin);

  const deps = { deps: options.deps };
  await app.register(healthRoutes, deps);
  await app.register(authRoutes, deps);
  await app.register(profileRoutes, deps);
  await app.register(registrationRequestsRoutes, deps);
  await app.register(organizationsRoutes, deps);
  await app.register(intercompanyLinksRoutes, deps);
  await app.register(departmentsRoutes, deps);
  await app.register(receiptsRoutes, deps);
  await app.register(categoriesRoutes, deps);
  await app.register(fxRatesRoutes, deps);
  await app.register(vendorsRoutes, deps);
  await app.register(usersRoutes, deps);
  await app.register(securityRoutes, deps);
  await app.register(rolesRoutes, deps);
  await app.register(auditRoutes, deps);
  await app.register(requestsRoutes, deps);
  await app.register(requestTransitionsRoutes, deps);
  await app.register(approvalsRoutes, deps);
  await app.register(workflowsRoutes, deps);
  await app.register(routingRoutes, deps);
  await app.register(delegationsRoutes, deps);
  await app.register(budgetsRoutes, deps);
  await app.register(policiesRoutes, deps);
  await app.register(notificationsRoutes, deps);
  await app.register(dashboardRoutes, deps);
  await app.register(payrollRoutes, deps);
  await app.register(consolidationRoutes, deps);
  await app.register(accountingRoutes, deps);
  await app.register(financialFlowRoutes, deps);
  await app.register(analyticsRoutes, deps);
  await app.register(payablesRoutes, deps);
  await app.register(reportsRoutes, deps);
  await app.register(tutorialsRoutes, deps);
  await app.register(searchRoutes, deps);
  await app.register(onboardingRoutes, deps);
  await app.register(featureSuggestionsRoutes, deps);
  await app.register(communicationsRoutes, deps);
  await app.register(aiRoutes, deps);
  await app.register(errorReportsRoutes, deps);
  await app.register(calendarRoutes, deps);
  await app.register(backupsRoutes, deps);
  await app.register(apiKeysRoutes, deps);
  await app.register(webhooksRoutes, deps);
  await app.register(requestSuggestionsRoutes, deps);
  await app.register(findingsRoutes, deps);
  await app.register(forecastsRoutes, deps);
  await app.register(coachingRoutes, deps);

  await app.register(webPlugin, { webDist: options.webDist });
  return app;
}
