// Loading a shipped data set (the world graph, the book catalog) leaves a few hundred MB of garbage behind. V8 would
// return it to the system only after its memory reducer notices the process is idle (tens of seconds later); the
// program knows the moment loading ends, so it asks for one full collection then.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Runs one full, synchronous garbage collection (tens of milliseconds after a load; once, not per request). */
export function collectLoadingGarbage(): void {
  if (!collect) {
    // The collector's entry point is exposed to a fresh context only: the program's own global stays as it was.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
