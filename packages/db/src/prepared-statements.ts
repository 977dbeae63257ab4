import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Server-side prepared statements for the statements a server sends again and again, as pgjdbc
 * does by default. PostgreSQL parses and plans every unnamed statement afresh: for the approval
 * queue that is more than half of the database's time (1.5 ms of planning beside 1.6 ms of
 * running). A named statement is parsed once per connection, and after five runs PostgreSQL may
 * keep a generic plan when it costs no more than the custom ones.
 *
 * - A statement is named from its second sighting in this process (one-off texts stay unnamed), by
 *   a hash of its text, so one name never stands for two texts.
 * - Planner settings changed inside a transaction (`set_config(...)`, `SET ...`) are part of the
 *   name until the transaction ends: a plan made under `enable_seqscan = off` is never reused
 *   without it, nor the other way round.
 * - Each connection keeps at most `MAX_PER_CONNECTION` statements; the least recently used one is
 *   deallocated to make room, so a backend's memory stays bounded.
 */
export const MAX_PER_CONNECTION = 100;
/** Texts counted before a statement is named; cleared when full (a count restarts, nothing breaks). */
const MAX_SEEN = 5_000;
const seen = new Map<string, number>();

const SETTING = /^\s*set\s|set_config\s*\(/i;
const SELECT = /^\s*select\s/i;
const TRANSACTION_END = /^\s*(begin|start transaction|commit|end|rollback|abort)\b/i;

function statementName(settings: string, text: string): string {
  return `o_${createHash('sha1').update(settings).update('\u0000').update(text).digest('base64url')}`;
}

interface QueryConfigLike {
  text: string;
  name?: string;
  values?: unknown[];
  submit?: unknown;
}

function isPlainConfig(config: unknown): config is QueryConfigLike {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as QueryConfigLike).text === 'string' &&
    (config as QueryConfigLike).name === undefined &&
    // A Query or Cursor object runs itself; it is passed through untouched.
    typeof (config as QueryConfigLike).submit !== 'function'
  );
}

type Parsed = { parsedStatements: Record<string, string> };

export class PreparingClient extends pg.Client {
  /** This connection's named statements, least recently used first. */
  private readonly named = new Map<string, true>();
  /** The settings statements of the open transaction, which plans made in it depend on. */
  private settings = '';

  /** The pool calls this when the connection goes back, whatever the transaction did. */
  forgetSettings(): void {
    this.settings = '';
  }

  // pg's overloads (callback, promise, Submittable) are kept as they are: only the config changes.
  override query(...args: unknown[]): never {
    const [config, values] = args;
    const text = typeof config === 'string' ? config : isPlainConfig(config) ? config.text : null;
    if (text !== null) {
      if (TRANSACTION_END.test(text)) this.settings = '';
      else {
        // A SELECT that makes settings (search's, which also reads the names its words may name) is
        // itself named under the settings before it; the statements after it, under its own too.
        const setting = SETTING.test(text);
        if (isPlainConfig(config) && (!setting || SELECT.test(text)) && this.worthNaming(text)) {
          args[0] = { ...config, name: this.nameFor(text) };
        }
        if (setting)
          this.settings += `${text}\u0000${JSON.stringify(values ?? (config as QueryConfigLike).values ?? [])}\u0000`;
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private worthNaming(text: string): boolean {
    const n = (seen.get(text) ?? 0) + 1;
    if (n <= 2) {
      if (seen.size >= MAX_SEEN) seen.clear();
      seen.set(text, n);
    }
    return n >= 2;
  }

  private nameFor(text: string): string {
    const name = statementName(this.settings, text);
    if (this.named.delete(name)) {
      this.named.set(name, true);
      return name;
    }
    if (this.named.size >= MAX_PER_CONNECTION) this.evictOldest();
    this.named.set(name, true);
    return name;
  }

  private evictOldest(): void {
    const oldest = this.named.keys().next().value;
    if (oldest === undefined) return;
    this.named.delete(oldest);
    const connection = (this as unknown as { connection: Parsed }).connection;
    // Queued ahead of the statement that needs the room. pg forgets the name only once the server
    // has: in a failed transaction DEALLOCATE is refused, and the statement simply stays.
    (super.query as (...a: unknown[]) => unknown)(`DEALLOCATE "${oldest}"`, (error: Error | null) => {
      if (!error) delete connection.parsedStatements[oldest];
    });
  }
}
