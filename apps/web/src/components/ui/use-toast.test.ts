import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reducer, toast, useToast, type ToasterToast } from './use-toast';

const make = (id: string): ToasterToast => ({ id, open: true, onOpenChange: () => undefined, title: id });

describe('toasts (docs/product.md §6.3, §6.8)', () => {
  it('keeps at most one toast: the newest replaces the old', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD', toast: make('1') });
    state = reducer(state, { type: 'ADD', toast: make('2') });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });
  it('closes a dismissed toast before removing it', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD', toast: make('1') });
    state = reducer(state, { type: 'DISMISS', toastId: '1' });
    expect(state.toasts[0]!.open).toBe(false);
    state = reducer(state, { type: 'REMOVE', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });
  it('shows a toast raised after the Toaster first rendered but before it subscribed (it loads lazily)', () => {
    let raised = false;
    const { result } = renderHook(() => {
      const state = useToast();
      // Between this render and its effect: where a click on a freshly loaded screen can land.
      if (!raised) {
        raised = true;
        toast({ title: 'Validation Error' });
      }
      return state;
    });
    expect(result.current.toasts.map((t) => t.title)).toEqual(['Validation Error']);
  });
});
