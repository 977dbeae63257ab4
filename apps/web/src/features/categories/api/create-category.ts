import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Category, CreateCategoryValues } from '@outlay/contracts/categories';
import { apiJson } from '@/lib/api-client';
import { invalidateUrls } from '@/lib/query-client';
import { CATEGORIES_URL } from './keys';

export function createCategory(input: CreateCategoryValues) {
  return apiJson<Category>('POST', CATEGORIES_URL, input);
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCategory, onSuccess: () => invalidateUrls(queryClient, CATEGORIES_URL) });
}
