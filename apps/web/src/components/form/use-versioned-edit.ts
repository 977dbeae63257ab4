import { useCallback, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { ifMatch } from '@/lib/versions';

interface VersionedEditOptions<TRecord extends { version: number }, TIn extends FieldValues> {
  /** The record as the form was opened with (mount the form per record, e.g. `key={record.id}`). */
  record: TRecord;
  form: UseFormReturn<TIn, unknown, unknown>;
  /** Reads the latest copy from the server. */
  load: () => Promise<TRecord>;
  /** The form values of a record, as the form was opened with. */
  toValues: (record: TRecord) => TIn;
}

export interface VersionedEdit<TRecord> {
  /** Headers for the save: If-Match with the version the form shows. */
  headers: () => Record<string, string>;
  /** After a successful save: the next save is based on what the server answered. */
  saved: (record: TRecord) => void;
  /** For FormDialog's `onReload`: the latest copy replaces the form's values and version. */
  reload: () => Promise<void>;
}

/**
 * The one way an edit form takes part in version checks: it remembers the version it shows, sends
 * it with the save, and on "changed by someone else" reloads the record into the form. Until the
 * user reloads, what they typed stays in the fields.
 */
export function useVersionedEdit<TRecord extends { version: number }, TIn extends FieldValues>({
  record,
  form,
  load,
  toValues,
}: VersionedEditOptions<TRecord, TIn>): VersionedEdit<TRecord> {
  // Only what the fields show moves the version: opening, a save, a reload. A newer copy that
  // arrives in the background must not, or the save would overwrite it with older values.
  const version = useRef(record.version);
  const headers = useCallback(() => ifMatch(version.current), []);
  const saved = useCallback((next: TRecord) => {
    version.current = next.version;
  }, []);
  const reload = useCallback(async () => {
    const fresh = await load();
    version.current = fresh.version;
    form.reset(toValues(fresh));
  }, [load, toValues, form]);
  return { headers, saved, reload };
}
