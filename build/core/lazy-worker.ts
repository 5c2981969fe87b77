// The lifecycle both measuring threads share: one worker thread per purpose,
// started on first use from a script, holding the process open only while
// it has work, and forgotten (its jobs failed) when it errs or exits, so the
// next use starts a fresh one.
import { Worker } from 'node:worker_threads';

export class LazyWorker<Reply> {
  private worker: Worker | undefined;
  private starting: Promise<void> | undefined; // the script is being made (e.g. bundled by esbuild)
  private queued: unknown[] = []; // messages posted meanwhile
  private busy = 0;

  /**
   * `source` returns the worker's CommonJS code (run with eval), or a promise
   * of it: the caller's thread goes on while it is made, and messages posted
   * meanwhile are sent once the worker runs. `onReply` gets each message;
   * `onStop` is told the worker is gone (or could not start), with why.
   */
  constructor(
    private readonly source: () => string | Promise<string>,
    private readonly onReply: (reply: Reply) => void,
    private readonly onStop: (error: Error) => void,
  ) {}

  /**
   * Starts the worker now, before any job, so that it is ready when the
   * first one comes (a thread takes ~0.1 s to boot); it does not keep the
   * process alive. Returns false if no worker can run.
   */
  warm(): boolean {
    if (this.worker || this.starting) return true;
    let source: string | Promise<string>;
    try {
      source = this.source();
    } catch {
      return false;
    }
    if (typeof source === 'string') return this.spawn(source) !== undefined;
    this.starting = source.then(
      (code) => {
        this.starting = undefined;
        if (!this.spawn(code)) this.fail(new Error('cannot start the worker thread'));
      },
      (error: unknown) => {
        this.starting = undefined;
        this.fail(error instanceof Error ? error : new Error(String(error)));
      },
    );
    return true;
  }

  /** Posts `message` as one more job (the process stays open until done() is called for it); false if no worker can run. */
  post(message: unknown): boolean {
    if (!this.warm()) return false;
    this.busy += 1;
    if (this.worker) {
      this.worker.ref();
      this.worker.postMessage(message);
    } else {
      this.queued.push(message);
    }
    return true;
  }

  /** Marks one job finished; an idle worker no longer keeps the process alive. */
  done(): void {
    this.busy = Math.max(0, this.busy - 1);
    if (this.busy === 0) this.worker?.unref();
  }

  /** The worker could not start: its queued jobs fail. */
  private fail(error: Error): void {
    this.queued = [];
    this.busy = 0;
    this.onStop(error);
  }

  private spawn(code: string): Worker | undefined {
    let started: Worker;
    try {
      started = new Worker(code, { eval: true });
    } catch {
      return undefined;
    }
    started.on('message', (reply: Reply) => this.onReply(reply));
    const stop = (error: Error) => {
      if (this.worker !== started) return;
      this.worker = undefined;
      this.busy = 0;
      this.onStop(error);
    };
    started.on('error', stop);
    started.on('exit', (code) => stop(new Error(`worker thread exited with code ${code}`)));
    this.worker = started;
    // After the listeners: adding a 'message' listener refs the worker's port
    // again, so a worker unref'd before it (warmed, never given a job) would
    // hold the process open after its work, forever.
    if (this.busy > 0) started.ref();
    else started.unref();
    for (const message of this.queued) started.postMessage(message);
    this.queued = [];
    return started;
  }
}
