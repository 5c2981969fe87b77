// The lifecycle both measuring threads share: one worker thread per purpose,
// started on first use from a script, holding the process open only while
// it has work, and forgotten (its jobs failed) when it errs or exits, so the
// next use starts a fresh one.
import { Worker } from 'node:worker_threads';

export class LazyWorker<Reply> {
  private worker: Worker | undefined;
  private busy = 0;

  /**
   * `source` returns the worker's CommonJS code (run with eval); `onReply`
   * gets each message; `onStop` is told the worker is gone, with why.
   */
  constructor(
    private readonly source: () => string,
    private readonly onReply: (reply: Reply) => void,
    private readonly onStop: (error: Error) => void,
  ) {}

  /** Posts `message` as one more job (the process stays open until done() is called for it); false if no worker can run. */
  post(message: unknown): boolean {
    const worker = this.start();
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

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    let started: Worker;
    try {
      started = new Worker(this.source(), { eval: true });
    } catch {
      return undefined;
    }
    started.unref();
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
    return started;
  }
}
