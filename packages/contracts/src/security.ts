// Schemas for the security screens and API (issue 4).
export {};
