import { queryOptions } from '@tanstack/react-query';
import type { Employee } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';

export const EMPLOYEES_URL = '/api/payroll/employees';

export function fetchEmployee(id: string, signal?: AbortSignal) {
  return apiJson<Employee>('GET', `${EMPLOYEES_URL}/${id}`, undefined, { signal });
}

export function employeeQueryOptions(id: string) {
  return queryOptions({ queryKey: [EMPLOYEES_URL, id], queryFn: ({ signal }) => fetchEmployee(id, signal) });
}
