// Schemas for the audit screens and API (issue 4).
export {};
