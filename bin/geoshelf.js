#!/usr/bin/env node
// Entry point of `npx geoshelf`: runs the CLI from the sources in this
// checkout (no separate compile step), through their cached bundle
// (./cli-bundle.js), or through tsx's TypeScript loader when no bundle can be
// made, kept or loaded (say a chunk was deleted), or GEOSHELF_CLI_BUNDLE=0
// asks for it.
import { bundledCli } from './cli-bundle.js';

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
