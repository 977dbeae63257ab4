import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A library that only some requests need (spreadsheets, PDFs, images, holidays, date parsing),
 * loaded when it is first used rather than when the server starts. Loaded at start they held
 * about half of an idle server's heap, and V8 lets the heap grow to a multiple of what it holds
 * after each full collection, so each of them raised the server's memory under any load.
 * `require` keeps callers synchronous; every package loaded this way ships CommonJS. `setUp` runs
 * once, on the first load.
 */
export function onFirstUse<T>(name: string, setUp?: (module: T) => void): () => T {
  let module: T | undefined;
  return () => {
    if (module === undefined) {
      const loaded = load(name) as T;
      setUp?.(loaded);
      module = loaded;
    }
    return module;
  };
}
