export * from './client.ts';
export * from './search.ts';
export * from './migrate.ts';
export * from './lock.ts';
export * from './approval-steps.ts';
export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export {
  seedDemo,
  isEmpty,
  DEMO_USERS,
  DEMO_STAFF,
  DEMO_PASSWORD,
  DEMO_TEMP_PASSWORD,
  type SeedTools,
} from './seed/demo.ts';
