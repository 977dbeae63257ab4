import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Department, UpdateDepartmentValues } from '@outlay/contracts/organizations';
import { apiJson } from '@/lib/api-client';
import { DEPARTMENTS_URL, invalidate } from './keys';

export function updateDepartment({ id, input }: { id: string; input: UpdateDepartmentValues }) {
  return apiJson<Department>('PATCH', `${DEPARTMENTS_URL}/${id}`, input);
}

export function useUpdateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateDepartment, onSuccess: () => invalidate(queryClient, DEPARTMENTS_URL) });
}
