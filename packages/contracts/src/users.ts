// Schemas for the users screens and API (issue 4).
export {};
