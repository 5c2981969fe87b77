#!/usr/bin/env node
// Entry point of `npx geoshelf`: runs the CLI compiled into lib/ by the
// compile step (./compile.js), compiling it first, with one line saying why,
// when the sources changed since or a piece of lib/ is missing or damaged
// (and one line saying what it waits for, when another process is compiling).
import { ensureCompiled } from './compile.js';

// After its work, a command that has not exited within this time is stuck
// (GEOSHELF_EXIT_GRACE_MS sets it, for the test that checks this).
const EXIT_GRACE_MS = Number(process.env.GEOSHELF_EXIT_GRACE_MS) || 10_000;

try {
  await ensureCompiled({
    say: (why) => console.error(`geoshelf: compiling lib/ first (${why})`),
    onWait: (text) => console.error(`geoshelf: ${text}`),
  });
} catch (error) {
  console.error(`geoshelf: ${error.message}`);
  process.exit(1);
}
process.setSourceMapsEnabled(true); // a bug's stack names the .ts files
const { main } = await import('../lib/src/cli/main.js');
process.exitCode = await main(process.argv.slice(2));

// The command's work is done, so nothing should keep the process alive now (a
// worker thread or handle left referenced is a bug): rather than idle forever,
// which hangs a CI job, say what held it and exit as a bug does. Unref'd, so
// this timer never keeps the process alive itself.
setTimeout(() => {
  const held = process.getActiveResourcesInfo().filter((name) => name !== 'Timeout');
  console.error(
    `geoshelf: unexpected error (a bug in geoshelf, please report it): the command finished but ${held.join(', ') || 'something'} kept the process from exiting`,
  );
  process.exit(70);
}, EXIT_GRACE_MS).unref();
