import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  COMMENT_KIND_VALUES,
  LINE_ITEM_STATUS_VALUES,
  OVERRUN_STATUS_VALUES,
  RECURRENCE_VALUES,
  REQUEST_KIND_VALUES,
  REQUEST_STATUS_VALUES,
} from '@outlay/contracts';
import { currencyCheck, enumCheck, nonNegativeCheck, orderCheck, positiveCheck } from './checks.ts';
import { categories } from './categories.ts';
import { money, rate, ts } from './columns.ts';
import { requestSearchVector, tsvector } from '../search.ts';
import { departments, organizations } from './organizations.ts';
import { users } from './users.ts';
import { vendors } from './vendors.ts';

/**
 * A spending request. The amount is kept as raised (original currency) and converted to the
 * organization's and the group's currency with the rates used, fixed at submission.
 */
export const spendingRequests = pgTable(
  'spending_requests',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Human reference number: REQ-000123. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    departmentId: uuid('department_id').references(() => departments.id),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id),
    categoryId: uuid('category_id').references(() => categories.id),
    vendorId: uuid('vendor_id').references(() => vendors.id),
    title: text('title').notNull(),
    description: text('description'),
    justification: text('justification'),
    kind: text('kind', { enum: REQUEST_KIND_VALUES }).notNull().default('purchase'),
    amount: money('amount').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    /** 1 unit of `currency` = fxRate units of the organization's currency. */
    fxRate: rate('fx_rate').notNull().default('1'),
    amountOrg: money('amount_org').notNull(),
    orgCurrency: char('org_currency', { length: 3 }).notNull(),
    /** 1 unit of `currency` = groupFxRate units of the group's currency. */
    groupFxRate: rate('group_fx_rate').notNull().default('1'),
    amountGroup: money('amount_group').notNull(),
    groupCurrency: char('group_currency', { length: 3 }).notNull(),
    /** After partial approval of line items: what was approved, original currency. */
    approvedAmount: money('approved_amount'),
    expenseDate: date('expense_date'),
    neededBy: date('needed_by'),
    status: text('status', { enum: REQUEST_STATUS_VALUES }).notNull().default('draft'),
    recurrence: text('recurrence', { enum: RECURRENCE_VALUES }).notNull().default('none'),
    recurrenceEnd: date('recurrence_end'),
    /** The request a recurring instance was generated from. */
    recurrenceParentId: uuid('recurrence_parent_id'),
    workflowId: uuid('workflow_id'),
    workflowName: text('workflow_name'),
    /** Why the engine chose the route (shown on /smart-approval-routing). */
    routeReason: jsonb('route_reason').$type<string[]>().notNull().default([]),
    currentStep: integer('current_step'),
    /** Hooks for budgets and policies: set by the checks at submission. */
    overBudget: boolean('over_budget').notNull().default(false),
    overrunStatus: text('overrun_status', { enum: OVERRUN_STATUS_VALUES }),
    policyFindings: jsonb('policy_findings').$type<unknown[]>().notNull().default([]),
    /** The policy rules (id and version) the request was checked against at submission. */
    policyVersions: jsonb('policy_versions').$type<{ ruleId: string; version: number }[]>().notNull().default([]),
    rejectionReason: text('rejection_reason'),
    submittedAt: ts('submitted_at'),
    decidedAt: ts('decided_at'),
    paidAt: ts('paid_at'),
    paymentDate: date('payment_date'),
    paymentReference: text('payment_reference'),
    paidById: uuid('paid_by_id'),
    cancelledAt: ts('cancelled_at'),
    /**
     * Whether any attachment (a receipt) is on the request, kept by a trigger on
     * `request_attachments` in the transaction of every upload and removal, so receipt coverage
     * is read from `spend_monthly` instead of joining every decided request to its attachments.
     */
    hasReceipt: boolean('has_receipt').notNull().default(false),
    /** Bumped by every write; a write naming an older version (If-Match) is refused. */
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The words search reads, kept by PostgreSQL: stored, so matching a row costs a lookup rather
     * than parsing its title and description again on every search.
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(requestSearchVector()),
    /**
     * The title in lower case, kept by PostgreSQL: a title search tests it with a case-sensitive
     * LIKE, a third of the cost of an ILIKE on the title, which lowers both sides on every row.
     */
    titleFolded: text('title_folded').generatedAlwaysAs(sql`lower(title)`),
  },
  (t) => [
    uniqueIndex('spending_requests_seq_idx').on(t.seq),
    // The request lists page by keyset on (created_at, seq), newest first by default, inside the
    // list's leading filter: the requester (my requests), the department or the organization
    // (scopes), the status, or none (the group); each page is one index range.
    index('spending_requests_requester_idx').on(t.requesterId, t.createdAt, t.seq),
    // The dashboard's own-requests tiles (count and value per status); migration 0020 makes it
    // covering (INCLUDE amount_group), so they read the index alone however many requests one has.
    index('spending_requests_requester_status_idx').on(t.requesterId, t.status),
    index('spending_requests_org_status_idx').on(t.organizationId, t.status),
    // Migration 0034 makes it covering (INCLUDE category, department, requester, status, amount_group),
    // so an organization's filtered page finds its keys in the index alone.
    index('spending_requests_org_created_idx').on(t.organizationId, t.createdAt, t.seq),
    // A category's requests, newest first, whatever else filters them: migration 0039 makes it covering
    // (INCLUDE organization, department, requester, status, amount_group), so "travel in Logistics
    // over 500 last month" reads that category's month instead of the organization's month.
    index('spending_requests_category_created_idx').on(t.categoryId, t.createdAt, t.seq),
    // One organization's requests of one category, newest first: migration 0040 makes it covering
    // (INCLUDE department, requester, status, amount_group), so "travel in Logistics over 500 last
    // month" reads Logistics' travel of that month, not the whole group's travel.
    index('spending_requests_org_category_created_idx').on(t.organizationId, t.categoryId, t.createdAt, t.seq),
    index('spending_requests_status_created_idx').on(t.status, t.createdAt, t.seq),
    index('spending_requests_dept_idx').on(t.departmentId, t.createdAt, t.seq),
    // Migrations 0023 and 0035 make it covering (INCLUDE title_folded), so a title search counts its
    // matches from the index alone.
    index('spending_requests_created_idx').on(t.createdAt, t.seq),
    // Analytics and the dashboard read decisions of a period (approval cycle time) by this range;
    // migration 0015 makes it covering (INCLUDE submitted_at, status, organization, department, category).
    index('spending_requests_decided_idx').on(t.decidedAt),
    // Search: words (weighted title, then description); trigrams of the lower-case title, which
    // find a rare word's few matches for the lists' title search (`titleContains`).
    index('spending_requests_search_vector_idx').using('gin', t.searchVector),
    index('spending_requests_title_trgm_idx').using('gin', t.titleFolded.op('gin_trgm_ops')),
    enumCheck('spending_requests_kind_check', t.kind, REQUEST_KIND_VALUES),
    enumCheck('spending_requests_status_check', t.status, REQUEST_STATUS_VALUES),
    enumCheck('spending_requests_recurrence_check', t.recurrence, RECURRENCE_VALUES),
    enumCheck('spending_requests_overrun_status_check', t.overrunStatus, OVERRUN_STATUS_VALUES),
    nonNegativeCheck('spending_requests_amount_check', t.amount),
    nonNegativeCheck('spending_requests_amount_org_check', t.amountOrg),
    nonNegativeCheck('spending_requests_amount_group_check', t.amountGroup),
    nonNegativeCheck('spending_requests_approved_amount_check', t.approvedAmount),
    // Partial approval only takes line items away: never more than was asked for (same currency).
    orderCheck('spending_requests_approved_within_amount_check', t.approvedAmount, t.amount),
    currencyCheck('spending_requests_currency_check', t.currency),
    currencyCheck('spending_requests_org_currency_check', t.orgCurrency),
    currencyCheck('spending_requests_group_currency_check', t.groupCurrency),
    positiveCheck('spending_requests_fx_rate_check', t.fxRate),
    positiveCheck('spending_requests_group_fx_rate_check', t.groupFxRate),
  ],
);

export const requestLineItems = pgTable(
  'request_line_items',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    categoryId: uuid('category_id').references(() => categories.id),
    /** Net amount, original currency. */
    amount: money('amount').notNull(),
    taxAmount: money('tax_amount').notNull().default('0'),
    status: text('status', { enum: LINE_ITEM_STATUS_VALUES }).notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    index('request_line_items_request_idx').on(t.requestId),
    nonNegativeCheck('request_line_items_amount_check', t.amount),
    nonNegativeCheck('request_line_items_tax_amount_check', t.taxAmount),
    enumCheck('request_line_items_status_check', t.status, LINE_ITEM_STATUS_VALUES),
  ],
);

export const requestAllocations = pgTable(
  'request_allocations',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    percent: numeric('percent', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    uniqueIndex('request_allocations_dept_idx').on(t.requestId, t.departmentId),
    check('request_allocations_percent_check', sql`${t.percent} > 0 and ${t.percent} <= 100`),
  ],
);

/** Files live in the storage (a folder under the data directory by default); only metadata here. */
export const requestAttachments = pgTable(
  'request_attachments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    uploadedById: uuid('uploaded_by_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('request_attachments_request_idx').on(t.requestId)],
);

export const requestComments = pgTable(
  'request_comments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').notNull(),
    kind: text('kind', { enum: COMMENT_KIND_VALUES }).notNull().default('comment'),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('request_comments_request_idx').on(t.requestId, t.createdAt),
    enumCheck('request_comments_kind_check', t.kind, COMMENT_KIND_VALUES),
  ],
);

/** The request's timeline: what happened, who did it, on whose behalf. */
export const requestEvents = pgTable(
  'request_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => spendingRequests.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorId: uuid('actor_id'),
    onBehalfOfId: uuid('on_behalf_of_id'),
    stepPosition: integer('step_position'),
    note: text('note'),
    data: jsonb('data'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('request_events_request_idx').on(t.requestId, t.id),
    // The dashboard's activity feed reads the newest events first.
    index('request_events_created_idx').on(t.createdAt, t.id),
  ],
);
