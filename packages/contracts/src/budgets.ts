// Schemas for issue 6 (budgets).
export {};
