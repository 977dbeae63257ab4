// The budgets module's public face: what the app, the jobs, the plugins and other modules use.
// Outside this folder, import the module from here; files inside it import each other directly.
export { budgetsRoutes } from './budgets.routes.ts';
export { type BudgetCheck, checkBudgets, recomputeThresholds } from './budget-check.ts';
export { consumptionOf, Converter, percentUsedText, usedOf } from './budgets.consumption.ts';
export { linesOfOneTotal } from './budgets.totals.ts';
export { type OverrunRaise, raiseLinesForOverrun } from './budgets.adjustments.ts';
export { impactOfRequest } from './budgets.impact.ts';
export { overrunOf } from './budgets.overruns.ts';
export { listLines } from './budgets.repository.ts';
export { labelOf, lineScope } from './budgets.service.ts';
export { budgetVsActual } from './budgets.vs-actual.ts';
