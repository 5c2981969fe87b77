// The CLI's conventions, shared by every command (README "Exit codes and
// output"): help, version, groups, unknown commands, usage errors, bugs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, cliProcess } from './support/cli.ts';

const COMMANDS = [
  'serve',
  'locations import',
  'measure',
  'validate',
  'manifest',
  'build',
  'preview',
  'split',
];

describe('geoshelf CLI', () => {
  it('--help lists every command (the real binary)', async () => {
    const { code, stdout } = await cliProcess('--help');
    expect(code).toBe(0);
    for (const name of COMMANDS) expect(stdout).toContain(`  ${name} `);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli('--version')).toEqual({ code: 0, stdout: `geoshelf ${version}\n`, stderr: '' });
  });

  it('a command group alone, or with --help, lists its commands', async () => {
    for (const args of [['locations'], ['locations', '--help']]) {
      const { code, stdout } = await cli(...args);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: geoshelf locations <command>');
      expect(stdout).toContain('  locations import ');
      expect(stdout).not.toContain('  validate ');
    }
  });

  it('every command has --help, and its usage lists every option it accepts', async () => {
    for (const name of COMMANDS) {
      const { code, stdout } = await cli(...name.split(' '), '--help');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: geoshelf /);
      const module = name === 'locations import' ? 'locations-import' : name;
      const source = readFileSync(`src/cli/commands/${module}.ts`, 'utf8');
      const options = [...source.matchAll(/^\s+'?([a-z-]+)'?: \{ type: '(?:string|boolean)'/gm)].map(
        (m) => m[1],
      );
      for (const option of options) expect(stdout, `${name} --${option}`).toContain(`--${option}`);
    }
  });

  it('an unknown command → exit 2 (usage) with a one-line reason on stderr', async () => {
    const { code, stderr } = await cli('frobnicate');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('geoshelf: unknown command "frobnicate"');
  });

  it('an unknown flag → exit 2, "geoshelf COMMAND: …" on one line', async () => {
    const { code, stdout, stderr } = await cli('validate', '--frobnicate');
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe("geoshelf validate: Unknown option '--frobnicate' (see --help)\n");
  });
});
