export * from './organizations.ts';
export * from './users.ts';
export * from './sessions.ts';
export * from './registrations.ts';
export * from './audit.ts';
export * from './settings.ts';
export * from './finance.ts';
export * from './access.ts';
