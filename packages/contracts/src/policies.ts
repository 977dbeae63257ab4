// Schemas for issue 6 (policies).
export {};
