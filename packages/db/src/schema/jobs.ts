import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/** A lease for background jobs so that with several instances each run happens once. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastRunAt: ts('last_run_at'),
  lastResult: jsonb('last_result'),
});
