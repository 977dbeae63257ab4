import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Category, UpdateCategoryValues } from '@outlay/contracts/categories';
import { apiJson } from '@/lib/api-client';
import { invalidateUrls } from '@/lib/query-client';
import { CATEGORIES_URL } from './keys';

export function updateCategory({ id, input }: { id: string; input: UpdateCategoryValues }) {
  return apiJson<Category>('PATCH', `${CATEGORIES_URL}/${id}`, input);
}

export function useUpdateCategory() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCategory, onSuccess: () => invalidateUrls(queryClient, CATEGORIES_URL) });
}
