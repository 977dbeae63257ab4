import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Employee, UpdateEmployeeInput } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { EMPLOYEES_URL } from './employee';

/** PATCH with If-Match (the version the form was filled from): a stale save gets 412. */
export function updateEmployee({
  id,
  input,
  headers,
}: {
  id: string;
  input: UpdateEmployeeInput;
  headers?: Record<string, string>;
}) {
  return apiJson<Employee>('PATCH', `${EMPLOYEES_URL}/${id}`, input, { headers });
}

export function useUpdateEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [EMPLOYEES_URL] }),
  });
}
