#!/usr/bin/env node
// Entry point of `npx geoshelf`: loads the TypeScript CLI through tsx, so the
// command always runs the sources in the checkout (no separate compile step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
