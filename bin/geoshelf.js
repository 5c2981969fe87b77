#!/usr/bin/env node
// Entry point of `npx geoshelf`: runs the CLI from the sources in this
// checkout (no separate compile step), through their cached bundle
// (./cli-bundle.js), or through tsx's TypeScript loader when no bundle can be
// made, kept or loaded (say a chunk was deleted), or GEOSHELF_CLI_BUNDLE=0
// asks for it.
import { bundledCli } from './cli-bundle.js';

// After its work, a command that has not exited within this time is stuck
// (GEOSHELF_EXIT_GRACE_MS sets it, for the test that checks this).
const EXIT_GRACE_MS = Number(process.env.GEOSHELF_EXIT_GRACE_MS) || 10_000;

async function loadMain() {
  const bundle = process.env.GEOSHELF_CLI_BUNDLE === '0' ? undefined : await bundledCli();
  if (bundle) {
    process.setSourceMapsEnabled(true); // a bug's stack names the .ts files, as under tsx
    try {
      return (await import(bundle.href)).main;
    } catch {
      process.setSourceMapsEnabled(false); // tsx maps its own
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/cli/main.ts')).main;
}

const main = await loadMain();
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
