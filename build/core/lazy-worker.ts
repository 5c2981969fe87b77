// The lifecycle the measuring threads share: one worker thread per purpose,
// started on first use from its compiled script, holding the process open only
// while it has work, and forgotten (its jobs failed) when it errs or exits, so
// the next use starts a fresh one.
import { Worker } from 'node:worker_threads';

export class LazyWorker<Reply> {
  private worker: Worker | undefined;
  private busy = 0;

  /**
   * `script` is the worker's compiled file (core/compiled.ts). `onReply` gets
   * each message; `onStop` is told the worker is gone, with why.
   */
  constructor(
    private readonly script: string,
    private readonly onReply: (reply: Reply) => void,
    private readonly onStop: (error: Error) => void,
  ) {}

  /**
   * Starts the worker now, before any job, so that it is ready when the
   * first one comes (a thread's boot is not free: docs/benchmarks.md); it
   * does not keep the process alive. Returns false if no worker can run.
   */
  warm(): boolean {
    return (this.worker ?? this.spawn()) !== undefined;
  }

  /** Posts `message` as one more job (the process stays open until done() is called for it); false if no worker can run. */
  post(message: unknown): boolean {
    const worker = this.worker ?? this.spawn();
    if (!worker) return false;
    this.busy += 1;
    worker.ref();
    worker.postMessage(message);
    return true;
  }

  /** Marks one job finished; an idle worker no longer keeps the process alive. */
  done(): void {
    this.busy = Math.max(0, this.busy - 1);
    if (this.busy === 0) this.worker?.unref();
  }

  private spawn(): Worker | undefined {
    let started: Worker;
    try {
      started = new Worker(this.script);
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
    // After the listeners: adding a 'message' listener refs the worker's port
    // again, so a worker unref'd before it (warmed, never given a job) would
    // hold the process open after its work, forever.
    started.unref();
    this.worker = started;
    return started;
  }
}
