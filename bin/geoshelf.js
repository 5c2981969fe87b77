#!/usr/bin/env node
// Entry point of `npx geoshelf`: runs the CLI from the sources in this
// checkout (no separate compile step), through their cached bundle
// (./cli-bundle.js), or through tsx's TypeScript loader when no bundle can be
// made or kept, or GEOSHELF_CLI_BUNDLE=0 asks for it.
import { bundledCli } from './cli-bundle.js';

const bundle = process.env.GEOSHELF_CLI_BUNDLE === '0' ? undefined : await bundledCli();
let main;
if (bundle) {
  process.setSourceMapsEnabled(true); // a bug's stack names the .ts files, as under tsx
  ({ main } = await import(bundle.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
