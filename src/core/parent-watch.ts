// A process started by a wrapper (`npm start`, a shell script, a test runner) is not signalled when that wrapper is
// killed: it is handed to init and would keep its ports. Watching the parent lets it stop as if it had been told to.

const POLL_MS = 1000;

/** Calls `onGone` once when the process that started this one has exited. Returns a function that stops watching. */
export function watchParent(onGone: () => void): () => void {
  const parent = process.ppid;
  // Started by init (a service manager or a container's first process): that parent does not go away.
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (isAlive(parent)) return;
    clearInterval(timer);
    onGone();
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
