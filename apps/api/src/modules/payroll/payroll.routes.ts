import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createEmployeeInput,
  createPayrollRunInput,
  employee,
  employeeExportQuery,
  employeeList,
  employeeListQuery,
  errorResponse,
  idParam,
  payPayrollRunInput,
  payrollAdjustmentInput,
  payrollAdjustmentParams,
  payrollBankFileQuery,
  payrollOrganizations,
  payrollRunDetail,
  payrollRunExportQuery,
  payrollRunList,
  payrollRunListQuery,
  payslipParams,
  updateEmployeeInput,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import { idempotencyKeyOf, withIdempotency } from '../../lib/idempotency.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import * as employees from './payroll.employees.ts';
import * as runs from './payroll.service.ts';
import { bankFile } from './payroll.bank-file.ts';
import { payslip } from './payroll.payslip.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const manage = { access: 'payroll.manage' as const };
const approve = { access: 'payroll.approve' as const };
/**
 * Runs are read by those who prepare payroll and by those who approve it; the guard takes one
 * permission, so it asks for reports.read (which both hold) and the service for either of the two.
 */
const readRuns = { access: 'reports.read' as const };
const tags = ['payroll'];

export async function payrollRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/payroll/organizations',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Organizations the caller keeps payroll for, with their departments and users',
        response: { 200: payrollOrganizations, ...errors },
      },
    },
    async (request) => employees.payrollOrganizations(contextOf(request, deps)),
  );
  listRoute(r, deps, '/api/payroll/employees', employees.listEmployees, {
    config: manage,
    tags,
    summary: "Employees in the caller's scope (IBANs masked)",
    querystring: employeeListQuery,
    response: { 200: employeeList, ...errors },
  });
  exportRoute(r, deps, '/api/payroll/employees/export', employees.exportEmployees, {
    config: manage,
    tags,
    summary: 'All matching employees as CSV or XLSX (bank accounts masked)',
    querystring: employeeExportQuery,
    filename: 'employees',
    columns: employees.EMPLOYEE_EXPORT_COLUMNS,
  });
  getVersionedRoute(r, deps, '/api/payroll/employees/:id', (ctx, { id }) => employees.getEmployee(ctx, id), {
    config: manage,
    tags,
    summary: 'One employee',
    params: idParam,
    response: { 200: employee, ...errors },
  });
  r.post(
    '/api/payroll/employees',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Add an employee; the IBAN is sealed and only its last four characters are shown',
        body: createEmployeeInput,
        response: { 201: employee, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(withEtag(reply, await employees.createEmployee(contextOf(request, deps), request.body))),
  );
  r.patch(
    '/api/payroll/employees/:id',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Update an employee; with If-Match only at that version (412 otherwise). A change of the bank account on file waits for another payroll manager's confirmation",
        params: idParam,
        body: updateEmployeeInput,
        response: { 200: employee, ...errors, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await employees.updateEmployee(
          contextOf(request, deps),
          request.params.id,
          request.body,
          expectedVersion(request),
        ),
      ),
  );
  r.post(
    '/api/payroll/employees/:id/bank-change/confirm',
    {
      config: manage,
      schema: {
        tags,
        summary:
          "Confirm an employee's pending bank account change so salaries go to it (not by the one who asked for it; needs a recent password confirmation); the employee is told",
        params: idParam,
        response: { 200: employee, ...errors },
      },
    },
    async (request, reply) =>
      withEtag(reply, await employees.confirmBankChange(contextOf(request, deps), request.params.id)),
  );
  r.delete(
    '/api/payroll/employees/:id/bank-change',
    {
      config: manage,
      schema: {
        tags,
        summary: "Discard an employee's pending bank account change",
        params: idParam,
        response: { 200: employee, ...errors },
      },
    },
    async (request, reply) =>
      withEtag(reply, await employees.discardBankChange(contextOf(request, deps), request.params.id)),
  );
  r.delete(
    '/api/payroll/employees/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete an employee who has never been on a payroll run',
        params: idParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await employees.deleteEmployee(contextOf(request, deps), request.params.id);
      return reply.code(204).send(null);
    },
  );

  listRoute(r, deps, '/api/payroll/runs', runs.listRuns, {
    config: readRuns,
    tags,
    summary: "Payroll runs in the caller's scope, newest month first; filter by organization and status",
    querystring: payrollRunListQuery,
    response: { 200: payrollRunList, ...errors },
  });
  exportRoute(r, deps, '/api/payroll/runs/export', runs.exportRuns, {
    config: readRuns,
    tags,
    summary: 'All matching payroll runs with their totals as CSV or XLSX',
    querystring: payrollRunExportQuery,
    filename: 'payroll-runs',
    columns: runs.RUN_EXPORT_COLUMNS,
    about: (_query, rows) => runs.exportAbout(rows),
  });
  getRoute(r, deps, '/api/payroll/runs/:id', (ctx, { id }) => runs.getRun(ctx, id), {
    config: readRuns,
    tags,
    summary: 'One payroll run with its lines, adjustments and what the caller may do',
    params: idParam,
    response: { 200: payrollRunDetail, ...errors },
  });
  r.post(
    '/api/payroll/runs',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Create the draft run of an organization for a month, with lines for everyone employed in it (Idempotency-Key accepted)',
        body: createPayrollRunInput,
        response: { 201: payrollRunDetail, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const out = await withIdempotency(
        ctx,
        { key: idempotencyKeyOf(request.headers), route: 'POST /api/payroll/runs', body: request.body },
        async (tx) => ({
          status: 201,
          body: await runs.createRun(ctx, tx, request.body),
        }),
      );
      return reply.code(out.status).send(out.body);
    },
  );
  r.post(
    '/api/payroll/runs/:id/adjustments',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Add a bonus or deduction with its reason to a draft run; the lines are recomputed (Idempotency-Key accepted)',
        params: idParam,
        body: payrollAdjustmentInput,
        response: { 201: payrollRunDetail, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const out = await withIdempotency(
        ctx,
        {
          key: idempotencyKeyOf(request.headers),
          route: `POST /api/payroll/runs/${request.params.id}/adjustments`,
          body: request.body,
        },
        async (tx) => ({ status: 201, body: await runs.addAdjustment(ctx, tx, request.params.id, request.body) }),
      );
      return reply.code(out.status).send(out.body);
    },
  );
  r.delete(
    '/api/payroll/runs/:id/adjustments/:adjustmentId',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove an adjustment from a draft run',
        params: payrollAdjustmentParams,
        response: { 200: payrollRunDetail, ...errors },
      },
    },
    async (request) => runs.removeAdjustment(contextOf(request, deps), request.params.id, request.params.adjustmentId),
  );
  r.post(
    '/api/payroll/runs/:id/recalculate',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Recompute a draft run from the employees as they are now',
        params: idParam,
        response: { 200: payrollRunDetail, ...errors },
      },
    },
    async (request) => runs.recalculateRun(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/payroll/runs/:id/submit',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Submit a draft run for approval; approvers are notified',
        params: idParam,
        response: { 200: payrollRunDetail, ...errors },
      },
    },
    async (request) => runs.submitRun(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/payroll/runs/:id/approve',
    {
      config: approve,
      schema: {
        tags,
        summary: 'Approve a submitted run (not one you submitted; needs a recent password confirmation)',
        params: idParam,
        response: { 200: payrollRunDetail, ...errors },
      },
    },
    async (request) => runs.approveRun(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/payroll/runs/:id/pay',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Mark an approved run paid (Idempotency-Key accepted)',
        params: idParam,
        body: payPayrollRunInput.optional(),
        response: { 200: payrollRunDetail, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request, deps);
      const body = request.body ?? {};
      const out = await withIdempotency(
        ctx,
        { key: idempotencyKeyOf(request.headers), route: `POST /api/payroll/runs/${request.params.id}/pay`, body },
        async (tx) => ({
          status: 200,
          body: await runs.payRun(ctx, tx, request.params.id, body),
        }),
      );
      return reply.code(out.status).send(out.body);
    },
  );
  r.get(
    '/api/payroll/runs/:id/bank-file',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'The bank transfer file of an approved or paid run: ISO 20022 pain.001.001.03 XML or CSV (step-up; API keys refused)',
        params: idParam,
        querystring: payrollBankFileQuery,
      },
    },
    async (request, reply) => {
      const file = await bankFile(contextOf(request, deps), request.params.id, request.query.format);
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      return reply.type(file.contentType).send(file.body);
    },
  );
  r.get(
    '/api/payroll/runs/:id/payslips/:employeeId',
    {
      config: manage,
      schema: {
        tags,
        summary: "One employee's payslip for the run as a PDF, with year-to-date totals (step-up; API keys refused)",
        params: payslipParams,
      },
    },
    async (request, reply) => {
      const file = await payslip(contextOf(request, deps), request.params.id, request.params.employeeId);
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      return reply.type('application/pdf').send(file.body);
    },
  );
}
