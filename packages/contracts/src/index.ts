export * from './constants.ts';
export * from './roles.ts';
export * from './permissions.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './registration.ts';
export * from './password-strength.ts';
export * from './health.ts';
