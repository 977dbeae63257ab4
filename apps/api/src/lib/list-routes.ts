// The shapes most routes files repeat: a list of the list protocol (contracts/lists.ts), its
// CSV/XLSX export twin, one record by id (with its ETag when it is editable). Each takes the route's access and its OpenAPI tags and
// summary as arguments, so every route still says who may call it and what it does, and the
// querystring, params and response types still come from the contract's zod schemas.
import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { contextOf, type AppDeps, type Ctx } from './context.ts';
import { sendExport, type ExportAbout, type ExportColumn } from './export.ts';
import { withEtag } from './versions.ts';

/** A routes plugin's `app.withTypeProvider<ZodTypeProvider>()`. */
export type ZodRoutes = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A route's `config`, whose access the route guard requires (ARCHITECTURE.md §6). */
export type RouteConfig = FastifyContextConfig & { access: NonNullable<FastifyContextConfig['access']> };

/** The responses of a route answering `R` with 200, and the error answers beside it. */
export type OkResponses<R extends z.ZodType> = { 200: R } & Record<number, z.ZodType>;

export interface ListRouteSchema<Q extends z.ZodType, R extends z.ZodType> {
  config: RouteConfig;
  tags: string[];
  summary: string;
  querystring: Q;
  response: OkResponses<R>;
}

/**
 * `GET url`: what the querystring asks for (a page of a list, or a report read with the same
 * filters), `list(ctx, query)` answering the 200 schema.
 */
export function listRoute<Q extends z.ZodType, R extends z.ZodType>(
  r: ZodRoutes,
  deps: AppDeps,
  url: string,
  list: (ctx: Ctx, query: z.output<Q>) => Promise<z.output<R>>,
  { config, tags, summary, querystring, response }: ListRouteSchema<Q, R>,
): void {
  r.get(url, { config, schema: { tags, summary, querystring, response } }, async (request) =>
    list(contextOf(request, deps), request.query as z.output<Q>),
  );
}

export interface ExportRouteSchema<Q extends z.ZodType, T> {
  config: RouteConfig;
  tags: string[];
  summary: string;
  querystring: Q;
  /** The file's name before what it covers and the day (`renderExport`). */
  filename: string;
  columns: ExportColumn<T>[];
  /** What the rows cover (a period, a day, a scope), for exports that name it. */
  about?: (query: z.output<Q>, rows: T[]) => ExportAbout;
}

/**
 * `GET url`: every matching row, `rows(ctx, query)` (the list's filters, no page), as a CSV or
 * XLSX attachment (`sendExport`) in the `format` the querystring asks for.
 */
export function exportRoute<Q extends z.ZodType<{ format: 'csv' | 'xlsx' }>, T>(
  r: ZodRoutes,
  deps: AppDeps,
  url: string,
  rows: (ctx: Ctx, query: z.output<Q>) => Promise<T[]>,
  { config, tags, summary, querystring, filename, columns, about }: ExportRouteSchema<Q, T>,
): void {
  r.get(url, { config, schema: { tags, summary, querystring } }, async (request, reply) => {
    const ctx = contextOf(request, deps);
    const query = request.query as z.output<Q>;
    const found = await rows(ctx, query);
    return sendExport(reply, {
      format: query.format,
      filename,
      columns,
      rows: found,
      now: ctx.now,
      about: about?.(query, found),
    });
  });
}

export interface GetRouteSchema<P extends z.ZodType, R extends z.ZodType> {
  config: RouteConfig;
  tags: string[];
  summary: string;
  params: P;
  response: OkResponses<R>;
}

/** `GET url/:id`: one record, `get(ctx, params)` answering the 200 schema. */
export function getRoute<P extends z.ZodType, R extends z.ZodType>(
  r: ZodRoutes,
  deps: AppDeps,
  url: string,
  get: (ctx: Ctx, params: z.output<P>) => Promise<z.output<R>>,
  { config, tags, summary, params, response }: GetRouteSchema<P, R>,
): void {
  r.get(url, { config, schema: { tags, summary, params, response } }, async (request) =>
    get(contextOf(request, deps), request.params as z.output<P>),
  );
}

/**
 * `GET url/:id`: one editable record, answered with its version as the ETag that `If-Match`
 * sends back (lib/versions.ts).
 */
export function getVersionedRoute<P extends z.ZodType, R extends z.ZodType<{ version: number }>>(
  r: ZodRoutes,
  deps: AppDeps,
  url: string,
  get: (ctx: Ctx, params: z.output<P>) => Promise<z.output<R>>,
  { config, tags, summary, params, response }: GetRouteSchema<P, R>,
): void {
  r.get(url, { config, schema: { tags, summary, params, response } }, async (request, reply) =>
    withEtag(reply, await get(contextOf(request, deps), request.params as z.output<P>)),
  );
}
