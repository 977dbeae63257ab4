// The policies module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { policiesRoutes } from './policies.routes.ts';
export { inForce, isoDay, similarity, summarize } from './policies.engine.ts';
export { activeRulesOfKinds, allRules, organizationById } from './policies.repository.ts';
export { createRule } from './policies.service.ts';
export { checkPolicies, type PolicyFinding } from './policy-check.ts';
