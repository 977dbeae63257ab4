import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDepartmentValues, Department } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { DEPARTMENTS_URL, invalidate, ORGANIZATIONS_URL } from './keys';

export function createDepartment(input: CreateDepartmentValues) {
  return apiJson<Department>('POST', DEPARTMENTS_URL, input);
}

export function useCreateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDepartment,
    onSuccess: () => invalidate(queryClient, DEPARTMENTS_URL, ORGANIZATIONS_URL),
  });
}
