// A ledger is input (issue 27), the long fuzz test: every kind of damage of
// test/support/ledger-mutations.ts with fixed seeds, then random kinds from a
// fresh seed (a failure prints it; LEDGER_FUZZ_SEED=… replays it). Each run
// ends in exit 0 or ledger lines only and writes nothing outside --out
// (test/support/ledger-fuzz.ts); every page a build wrote is opened in
// Chromium, and no script the ledger brought runs. The quick project runs
// nine of the kinds the issue names (test/release/ledger-fuzz.test.ts).
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDirs, makeTemplate, mutate, MUTATIONS, runOnLedger } from '../support/ledger-fuzz.ts';
import { HAVE_CHROMIUM, launchChromium, serveStatic } from './browser.ts';

const SEED = Number(process.env.LEDGER_FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);
const SEEDS_PER_KIND = 4;
const RANDOM_RUNS = 40;

const TMP = join(tmpdir(), `geoshelf-ledger-fuzz-long-${process.pid}`);
let template: string;
let browser: Browser | undefined;
beforeAll(async () => {
  template = await makeTemplate(TMP);
  if (HAVE_CHROMIUM) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  rmSync(TMP, { recursive: true, force: true });
});

/** The HTML files under `dir`, by path from it. */
function pages(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Opens every page of the site in `out` and returns those where the ledger's script ran. */
async function scriptRan(out: string): Promise<string[]> {
  if (!browser) return [];
  const server = await serveStatic(out);
  const ran: string[] = [];
  const page = await browser.newPage();
  try {
    for (const path of pages(out)) {
      await page.goto(`${server.origin}/${path.split('/').map(encodeURIComponent).join('/')}`, {
        waitUntil: 'load',
      });
      await page.waitForTimeout(50); // an onerror of a broken image fires after load
      if (await page.evaluate(() => (window as { __pwned?: unknown }).__pwned !== undefined)) ran.push(path);
    }
  } finally {
    await page.close();
    await server.close(); // every request answered before the case's folder is deleted
  }
  return ran;
}

let n = 0;
/** Mutates a copy of the template, runs every command on it and opens what build wrote; returns what went wrong. */
async function fuzz(seed: number, name?: string): Promise<string[]> {
  const dirs = caseDirs(template, join(TMP, `case-${n++}`));
  const what = mutate(dirs.root, seed, name);
  const run = await runOnLedger(dirs);
  const failures = [...run.failures];
  if (run.built) for (const path of await scriptRan(dirs.out)) failures.push(`script ran in ${path}`);
  rmSync(dirs.top, { recursive: true, force: true });
  return failures.map((f) => `seed ${seed}, ${what}: ${f}`);
}

describe('a hostile ledger, every kind of damage: exit 0 or ledger lines, nothing outside --out, no script', () => {
  for (const name of Object.keys(MUTATIONS)) {
    it(
      name,
      async () => {
        const failures: string[] = [];
        for (let seed = 1; seed <= SEEDS_PER_KIND; seed++) failures.push(...(await fuzz(seed, name)));
        expect(failures).toEqual([]);
      },
      120_000,
    );
  }
});

describe(`a hostile ledger, random kinds from a fresh seed (LEDGER_FUZZ_SEED=${SEED})`, () => {
  it(`${RANDOM_RUNS} runs`, async () => {
    const failures: string[] = [];
    for (let i = 0; i < RANDOM_RUNS; i++) failures.push(...(await fuzz(SEED + i)));
    expect(failures).toEqual([]);
  }, 600_000);
});
