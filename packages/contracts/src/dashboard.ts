// Schemas for issue 6 (dashboard).
export {};
