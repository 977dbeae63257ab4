import { useCallback, useRef } from 'react';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import { ifMatch } from '@/lib/versions';

interface Common<TRecord> {
  /**
   * The record as the form was opened with (mount the form per record, e.g. `key={record.id}`);
   * none when the same form creates a record, which sends no If-Match.
   */
  record: TRecord | null | undefined;
  /** Reads the latest copy from the server. */
  load: () => Promise<TRecord>;
}

/** A react-hook-form form: the record's values are reset into it. */
interface WithForm<TRecord, TIn extends FieldValues> extends Common<TRecord> {
  form: UseFormReturn<TIn, unknown, unknown>;
  toValues: (record: TRecord) => DefaultValues<TIn>;
}

/** A form that keeps its own state: `apply` puts a record's values into it. */
interface WithApply<TRecord> extends Common<TRecord> {
  apply: (record: TRecord) => void;
}

export interface VersionedEdit<TRecord> {
  /** Headers for the save: If-Match with the version the form shows. */
  headers: () => Record<string, string>;
  /** After a successful save: the next save is based on what the server answered. */
  saved: (record: TRecord) => void;
  /** Puts a record into the form, values and version together (a form reused for several records). */
  show: (record: TRecord) => void;
  /** For FormDialog's `onReload`: the latest copy replaces the form's values and version. */
  reload: () => Promise<void>;
}

/**
 * The one way an edit form takes part in version checks: it remembers the version it shows, sends
 * it with the save, and on "changed by someone else" reloads the record into the form. Until the
 * user reloads, what they typed stays in the fields.
 */
export function useVersionedEdit<TRecord extends { version: number }, TIn extends FieldValues = FieldValues>(
  options: WithForm<TRecord, TIn> | WithApply<TRecord>,
): VersionedEdit<TRecord> {
  // Only what the fields show moves the version: opening, a save, a reload. A newer copy that
  // arrives in the background must not, or the save would overwrite it with older values.
  const version = useRef(options.record?.version);
  const { load } = options;
  const apply = 'apply' in options ? options.apply : undefined;
  const form = 'form' in options ? options.form : undefined;
  const toValues = 'toValues' in options ? options.toValues : undefined;
  const headers = useCallback(() => ifMatch(version.current), []);
  const saved = useCallback((next: TRecord) => {
    version.current = next.version;
  }, []);
  const show = useCallback(
    (next: TRecord) => {
      version.current = next.version;
      if (apply) apply(next);
      else form?.reset(toValues?.(next));
    },
    [apply, form, toValues],
  );
  const reload = useCallback(async () => show(await load()), [load, show]);
  return { headers, saved, show, reload };
}
