import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEmployeeInput, Employee } from '@outlay/contracts/payroll';
import { apiJson } from '@/lib/api-client';
import { EMPLOYEES_URL } from './employee';

export function createEmployee(input: CreateEmployeeInput) {
  return apiJson<Employee>('POST', EMPLOYEES_URL, input);
}

export function useCreateEmployee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmployee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [EMPLOYEES_URL] }),
  });
}
