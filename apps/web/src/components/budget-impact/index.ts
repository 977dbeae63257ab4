/**
 * The budget impact block, one component for the request forms, the approval dialog and the
 * queue items; each feature passes its query from features/budgets/api/budget-impact.ts.
 */
export { BudgetImpact, type BudgetImpactProps } from './budget-impact';
