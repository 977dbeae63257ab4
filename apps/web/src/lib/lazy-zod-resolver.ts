import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';

/**
 * A zodResolver whose contract schema is imported on first use. The sign-in screen uses it to
 * keep zod out of its initial JavaScript (150 KB budget) while still validating with the
 * shared contract schema.
 */
export function lazyZodResolver<T extends FieldValues>(load: () => Promise<$ZodType<unknown, FieldValues>>): Resolver<T> {
  let resolver: Resolver<T> | undefined;
  return async (values, context, options) => {
    resolver ??= zodResolver(await load()) as unknown as Resolver<T>;
    return resolver(values, context, options);
  };
}
