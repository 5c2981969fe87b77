// Requests to one lazy worker thread (lazy-worker.ts), each answered by one
// reply: the table of requests waiting for their reply, matched by id, so
// replies may come back in any order. A worker that stops fails every request
// it holds; the next request starts a fresh one.
import { LazyWorker } from './lazy-worker.ts';

/** What a worker posts back for one request: the request's id, then an error or the answer's fields. */
export type WorkerReply<Answer extends object> = { id: number; error?: string } & Answer;

interface Waiting<Answer> {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

export class WorkerRequests<Message extends object, Answer extends object> {
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting<Answer>>();
  private readonly worker: LazyWorker<WorkerReply<Answer>>;

  /**
   * `script` is the worker's compiled file (core/compiled.ts); `purpose`
   * names it in the error when it cannot start, e.g. "sha256" → "cannot start
   * the sha256 worker thread".
   */
  constructor(
    script: string,
    private readonly purpose: string,
  ) {
    this.worker = new LazyWorker<WorkerReply<Answer>>(
      script,
      (reply) => this.settle(reply),
      (error) => this.failAll(error),
    );
  }

  /**
   * Posts `message` with a fresh `id` added, and returns the reply that
   * carries that id, without its `id` and `error`; rejects with the reply's
   * `error`, with why the worker stopped if it stops first, or at once if no
   * worker thread can start. The process stays open while a request waits,
   * and no longer.
   */
  request(message: Message): Promise<Answer> {
    const id = this.nextId++;
    if (!this.worker.post({ ...message, id })) {
      return Promise.reject(new Error(`cannot start the ${this.purpose} worker thread`));
    }
    // The reply comes on a later turn, so it finds its entry.
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  private settle({ id, error, ...answer }: WorkerReply<Answer>): void {
    const request = this.waiting.get(id);
    if (!request) return; // failed already, when its worker stopped
    this.waiting.delete(id);
    this.worker.done();
    if (error !== undefined) request.reject(new Error(error));
    else request.resolve(answer as unknown as Answer);
  }

  private failAll(error: Error): void {
    for (const request of this.waiting.values()) request.reject(error);
    this.waiting.clear();
  }
}
