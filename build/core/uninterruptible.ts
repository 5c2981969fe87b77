/**
 * Runs `commit` (a few renames and an atomic manifest write) with SIGINT and
 * SIGTERM held back, so an interrupt lands before or after it, never inside;
 * the process then exits with 130 (or 143) as it would have.
 */
export async function uninterruptible<T>(commit: () => Promise<T>): Promise<T> {
  let received: NodeJS.Signals | undefined;
  const hold = (signal: NodeJS.Signals) => {
    received ??= signal;
  };
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  try {
    return await commit();
  } finally {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    if (received) process.kill(process.pid, received);
  }
}
