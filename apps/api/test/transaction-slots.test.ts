/** Transactions hold at most their share of the pool (packages/db/src/transaction-slots.ts). */
import { describe, expect, it } from 'vitest';
import { TRANSACTION_SLOT_TIMEOUT_MESSAGE, TransactionSlots, transactionSlotsFor } from '@outlay/db/transaction-slots';
import { databaseUnavailable } from '../src/lib/db-errors.ts';

describe('transaction slots', () => {
  it('leave a quarter of the pool, at least one connection, to statements outside a transaction', () => {
    expect([1, 2, 4, 10, 20].map(transactionSlotsFor)).toEqual([1, 1, 3, 7, 15]);
  });

  it('run at most their size at once and serve waiters in order', async () => {
    const slots = new TransactionSlots(2, 5_000);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const runs = Array.from({ length: 5 }, (_, i) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
      }),
    );
    await expect.poll(() => gates.length).toBe(2);
    expect(slots.waiting).toBe(3);
    while (order.length < 5 || gates.length > 0) {
      await expect.poll(() => gates.length).toBeGreaterThan(0);
      gates.shift()!();
    }
    await Promise.all(runs);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(slots.busy).toBe(0);
  });

  it('give up after the wait as the pool does, which the API answers as a busy database', async () => {
    const slots = new TransactionSlots(1, 50);
    let open!: () => void;
    const holder = slots.run(() => new Promise<void>((resolve) => (open = resolve)));
    const error = await slots.run(async () => 'never').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(TRANSACTION_SLOT_TIMEOUT_MESSAGE);
    expect(databaseUnavailable(error)).toMatchObject({ kind: 'busy' });
    expect(slots.waiting).toBe(0);
    open();
    await holder;
    expect(await slots.run(async () => 'next')).toBe('next');
  });

  it('free the slot when the transaction fails', async () => {
    const slots = new TransactionSlots(1, 1_000);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(slots.busy).toBe(0);
  });
});
