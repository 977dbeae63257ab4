/**
 * How many of a pool's connections transactions may hold at once. A transaction can wait on a row
 * lock for the whole lock_timeout with its connection checked out; without a cap, a burst of
 * writers queued on one hot row holds every connection, and reads that need no lock (the session
 * check on every request) answer 503 until the lock goes. A quarter of the pool, at least one
 * connection, stays for statements outside a transaction.
 */
export function transactionSlotsFor(poolSize: number): number {
  return Math.max(1, poolSize - Math.ceil(poolSize / 4));
}

/** The message pg-pool gives when its bounded wait runs out, so callers read both as "busy". */
export const TRANSACTION_SLOT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * A counting semaphore in front of `transaction()`. A caller waits at most `waitMs` for a slot
 * (the pool's own connection wait), then fails as a pool wait does. Waiters are served in order.
 */
export class TransactionSlots {
  private inUse = 0;
  private readonly queue: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly size: number,
    private readonly waitMs: number,
  ) {}

  get busy(): number {
    return this.inUse;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.inUse < this.size) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(
          () => {
            const at = this.queue.indexOf(entry);
            if (at >= 0) this.queue.splice(at, 1);
            reject(new Error(TRANSACTION_SLOT_TIMEOUT_MESSAGE));
          },
          this.waitMs || 2 ** 31 - 1,
        ),
      };
      this.queue.push(entry);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter, so the count never dips and a newcomer
    // cannot overtake the queue.
    if (next) next.grant();
    else this.inUse--;
  }
}

type Transaction = (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>;

/**
 * Puts a drizzle database's top-level `transaction()` behind the slots. Savepoints inside a
 * transaction reuse its connection and go through no slot.
 */
export function limitTransactions(db: unknown, slots: TransactionSlots): void {
  const session = (db as { session: { transaction: Transaction } }).session;
  const transaction = session.transaction;
  session.transaction = function limitedTransaction(this: unknown, fn, config) {
    return slots.run(() => transaction.call(this, fn, config));
  };
}
