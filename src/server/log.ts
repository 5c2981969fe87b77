// The server's log: every line `geoshelf serve` prints while it runs (start-up,
// file reloads, failed requests, the stack of a 500, shutdown) is written here,
// as one JSON object per line (JSON Lines) on stdout. JSON rather than the
// combined log format because these are events, not requests: a stack or a
// reload has no place in the combined format's fields, and a stack kept inside
// one JSON string stays one line for `jq`, `grep` and log shippers.

/** What one line says; `msg` is the human sentence, the other fields are for machines. */
export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  /** A stable name to filter on, e.g. "listening", "reloaded", "unexpected-error". */
  event: string;
  msg: string;
  [field: string]: unknown;
}

/** Receives every log entry of a server. */
export type Logger = (entry: LogEntry) => void;

/**
 * Returns a logger writing one JSON object per line to `out` (default stdout),
 * the time first, e.g.
 * `{"time":"2026-11-24T01:52:31.123Z","level":"info","event":"listening","msg":"listening on http://127.0.0.1:8000","url":"http://127.0.0.1:8000"}`.
 */
export function jsonLinesLogger(out: { write(line: string): unknown } = process.stdout): Logger {
  return (entry) => {
    out.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  };
}

/** Returns the fields that describe `error`: its message, and its stack when `withStack`. */
export function errorFields(error: unknown, withStack: boolean): { error: string; stack?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const stack = withStack && error instanceof Error ? error.stack : undefined;
  return stack === undefined ? { error: message } : { error: message, stack };
}
