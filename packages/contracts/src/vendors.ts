// Schemas for the vendors screens and API (issue 4).
export {};
