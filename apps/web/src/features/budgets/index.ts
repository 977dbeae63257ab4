/*
 * The budgets feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useDraftBudgetImpact, useRequestBudgetImpact } from './api/budget-impact';
export { useBudgetOptions } from './api/budget-lines';
