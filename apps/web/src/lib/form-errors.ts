import type { FieldErrors, FieldValues } from 'react-hook-form';

/** The first message anywhere in a react-hook-form error tree (object-level refinements included). */
export function firstFormError<T extends FieldValues>(errors: FieldErrors<T>): string | undefined {
  const visit = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const record = node as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message) return record.message;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'ref') continue;
      const found = visit(value);
      if (found) return found;
    }
    return undefined;
  };
  return visit(errors);
}

/** An object-level refinement (path []) lands under the empty key in react-hook-form. */
export function formLevelError<T extends FieldValues>(errors: FieldErrors<T>): string | undefined {
  const entry = (errors as Record<string, { message?: unknown } | undefined>)[''];
  return typeof entry?.message === 'string' ? entry.message : undefined;
}
