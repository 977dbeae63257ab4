// Schemas for the organizations screens and API (issue 4).
export {};
