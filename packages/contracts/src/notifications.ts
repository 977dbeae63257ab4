// Schemas for issue 6 (notifications).
export {};
