// Long computations that must stay on the event loop (they work on objects the loop holds: a calendar's series and
// their caches) take turns with everything else. A computation runs in slices of about SLICE_MS; between two slices it
// waits for a turn, and turns are granted one per turn of the event loop across every computation of the process. So
// however many such computations run at once, the sockets of every service are served between two slices, where
// without turns twenty month lists of a busy calendar held the loop for 400 ms at a time.
import { performance } from 'node:perf_hooks';

/** How long a computation runs before it lets the event loop go round. */
export const SLICE_MS = 1;

const waiting: Array<() => void> = [];
let scheduled = false;

/** Grants the oldest waiting computation its turn; the next is granted on the event loop's next turn at the soonest. */
function grant(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // An immediate queued while immediates run waits for the loop's next turn: I/O is polled in between.
  setImmediate(grant);
}

/** The slices of one computation (make one per request). */
export class Turns {
  #started = 0;

  /** Waits for this computation's next turn: call before the work begins and after every wait for I/O. */
  async take(): Promise<void> {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      schedule();
    });
    this.#started = performance.now();
  }

  /** Whether the current slice is spent: check it often inside a long loop, and `take()` another turn when it is. */
  get due(): boolean {
    return performance.now() - this.#started >= SLICE_MS;
  }
}
