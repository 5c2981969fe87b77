// Vitest's global setup: compiles lib/ when it is not the compiled form of the
// sources as they are now, as the binary does before it runs, so a test never
// starts a stale worker script (a no-op taking milliseconds when lib/ is current).
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import { ensureCompiled } from '../../bin/compile.js';

export default async function setup(): Promise<void> {
  type Options = { say: (why: string) => void; onWait: (text: string) => void };
  await (ensureCompiled as (options: Options) => Promise<string | undefined>)({
    say: (why) => console.log(`compiling lib/ (${why})…`),
    onWait: (text) => console.log(text),
  });
}
