// The CLI's conventions, shared by every command (README "Exit codes and
// output"): help, version, groups, unknown commands, usage errors, bugs.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MeasurementCache } from '../build/measure/cache.ts';
import { cli, cliProcess, copyDataTree } from './support/cli.ts';

const FALSE = 'test/fixtures/manifests/false';
const tmp = mkdtempSync(join(tmpdir(), 'geoshelf-cli-'));

const COMMANDS = [
  'serve',
  'locations import',
  'measure',
  'validate',
  'manifest',
  'release',
  'release-copies',
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

  it('an unknown flag close to a known one → "did you mean" it', async () => {
    expect(await cli('validate', '--jsn')).toEqual({
      code: 2,
      stdout: '',
      stderr: "geoshelf validate: Unknown option '--jsn'; did you mean --json? (see --help)\n",
    });
    const swapped = await cli('build', '--quite');
    expect(swapped.stderr).toBe(
      "geoshelf build: Unknown option '--quite'; did you mean --quiet? (see --help)\n",
    );
    const typed = await cli('locations', 'import', '--replase', 'x.csv');
    expect(typed.stderr).toContain('did you mean --replace?');
    // Nothing close: no guess.
    expect((await cli('validate', '--colour')).stderr).not.toContain('did you mean');
  });

  it('an unknown command close to a known one → "did you mean" it', async () => {
    // The unknown word is named alone, not with the arguments after it.
    for (const [typed, line] of [
      [['valdiate'], 'geoshelf: unknown command "valdiate" (did you mean "validate"?)'],
      [['biuld', '--root', 'x'], 'geoshelf: unknown command "biuld" (did you mean "build"?)'],
      [
        ['locations', 'imprt', 'x.csv'],
        'geoshelf locations: unknown subcommand "imprt" (did you mean "locations import"?)',
      ],
      [['import', 'x.csv'], 'geoshelf: unknown command "import" (did you mean "locations import"?)'],
    ] as const) {
      const { code, stderr } = await cli(...typed);
      expect(code).toBe(2);
      expect(stderr.split('\n')[0]).toBe(line);
    }
  });

  it('--json is honoured only by the commands that declare it (validate, manifest, build, preview)', async () => {
    // measure has no --json: its flag is unknown, said in text, and stdout stays empty
    for (const args of [
      ['measure', '--json', 'x.geojson'],
      ['locations', 'import', '--json', 'x.csv'],
      ['split', '--json', '--level', 'ADM2', 'CHL'],
    ]) {
      const result = await cli(...args);
      expect(result, args[0]).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/: Unknown option '--json'/);
    }
    // a command that declares it prints a problem thrown by its stage as JSON
    const missing = await cli('validate', '--root', 'test/fixtures', '--json');
    expect(missing).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(missing.stdout)).toEqual([
      {
        file: 'test/fixtures/data',
        rule: 'input',
        severity: 'error',
        message: 'no such folder (--root names the folder that holds data/)',
      },
    ]);
  });

  it('every command: an unknown flag → exit 2 and "geoshelf COMMAND: Unknown option …" alone on stderr', async () => {
    for (const name of COMMANDS) {
      const result = await cli(...name.split(' '), '--frobnicate');
      expect(result, name).toEqual({
        code: 2,
        stdout: '',
        stderr: `geoshelf ${name}: Unknown option '--frobnicate' (see --help)\n`,
      });
    }
  });

  // A malformed value (a code, a level, a URL, a number) is a usage mistake like an unknown flag: exit 2.
  const MALFORMED: [string[], string][] = [
    [['preview', 'XX'], 'geoshelf preview: "XX": expected ISO3 or ISO3/LEVEL, e.g. CHL or CHL/ADM1'],
    [
      ['preview', 'CHL/ADM9'],
      'geoshelf preview: "CHL/ADM9": expected ISO3 or ISO3/LEVEL, e.g. CHL or CHL/ADM1',
    ],
    [['manifest', 'XX'], 'geoshelf manifest: "XX": expected ISO3 codes (3 letters, e.g. CHL)'],
    [['validate', 'CHL', 'X1'], 'geoshelf validate: "X1": expected ISO3 codes (3 letters, e.g. CHL)'],
    [
      ['build', '--site-url', 'example.org', '--out', join(tmp, 'never')],
      'geoshelf build: --site-url: expected an origin like https://example.org, got "example.org"',
    ],
    [
      ['build', '--base', 'a b', '--out', join(tmp, 'never')],
      'geoshelf build: --base: unusable base path "a b"',
    ],
    [
      ['split', '--level', 'ADM2', 'XX'],
      'geoshelf split: expected one ISO3 code, e.g. "geoshelf split --level ADM2 ARG"',
    ],
    [['serve', '--port', 'abc'], 'geoshelf serve: --port: expected an integer from 0 to 65535, got "abc"'],
    [
      ['release', '1.0.0', '--base=/atlas/'],
      'geoshelf release: --base: not an option of release: a release is published under BASE/releases/VERSION/ for whatever base build is given (geoshelf build --base BASE)',
    ],
  ];
  it('every command: a malformed value → exit 2 (usage), one line on stderr', async () => {
    for (const [args, line] of MALFORMED) {
      expect(await cli(...args), args.join(' ')).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
    }
    expect(existsSync(join(tmp, 'never'))).toBe(false);
  });

  // Bad input of each command → exit 1, and every problem line says where: FILE: POINTER, FILE:LINE or FILE: byte N.
  const BAD_INPUT: [string, string[], RegExp][] = [
    [
      'validate',
      ['validate', '--root', `${FALSE}/stats`, '--no-cache'],
      /^test\/fixtures\/manifests\/false\/stats\/data\/earth\/CHL\/manifest\.json: \/datasets\/\d+\/\w+: /,
    ],
    [
      'manifest',
      ['manifest', '--root', `${FALSE}/file-missing`, '--check', '--no-cache'],
      /^test\/fixtures\/manifests\/false\/file-missing\/data\/earth\/CHL\/manifest\.json: \/datasets\/\d+\/\w+: file /,
    ],
    [
      'build',
      ['build', '--root', `${FALSE}/license`, '--out', join(tmp, 'dist')],
      /^test\/fixtures\/manifests\/false\/license\/data\/earth\/(CHL|URY)\/manifest\.json: \/datasets\/0\/license: /,
    ],
    [
      'release',
      ['release', '1.0.0', '--root', `${FALSE}/license`],
      /^test\/fixtures\/manifests\/false\/license\/data\/earth\/(CHL|URY)\/manifest\.json: \/datasets\/0\/license: /,
    ],
    [
      'preview',
      ['preview', '--root', `${FALSE}/json`],
      /^test\/fixtures\/manifests\/false\/json\/data\/earth\/CHL\/manifest\.json: invalid JSON at line \d+, column \d+: /,
    ],
    [
      'split',
      ['split', '--level', 'ADM2', '--root', `${FALSE}/json`, 'CHL'],
      /^test\/fixtures\/manifests\/false\/json\/data\/earth\/CHL\/manifest\.json: invalid JSON at line/,
    ],
    [
      'measure',
      ['measure', 'test/fixtures/measure/false/not-utf8.geojson'],
      /^test\/fixtures\/measure\/false\/not-utf8\.geojson: byte 83: not UTF-8/,
    ],
    [
      'locations import',
      ['locations', 'import', 'test/fixtures/locations/false/bad.csv', '--db', join(tmp, 'x.sqlite')],
      /^test\/fixtures\/locations\/false\/bad\.csv:\d+: |\.sqlite: nothing written/,
    ],
    ['serve', ['serve', '--db', join(tmp, 'missing.sqlite')], /^geoshelf serve: cannot open /],
  ];
  for (const [name, args, line] of BAD_INPUT) {
    it(`${name}: bad input → exit 1, each problem on stderr says where, no stack`, async () => {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      const problems = result.stderr
        .split('\n')
        .filter((l) => l && !/^\d+ (problem|manifest)|^geoshelf (build|release): \d+ problem/.test(l));
      expect(problems.length).toBeGreaterThan(0);
      for (const problem of problems) expect(problem).toMatch(line);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it('--json: validate, manifest, preview and build print the same problem shape on stdout', async () => {
    for (const args of [
      ['validate', '--root', `${FALSE}/license`, '--no-cache'],
      ['manifest', '--root', `${FALSE}/file-missing`, '--check', '--no-cache'],
      ['preview', '--root', `${FALSE}/json`],
      ['build', '--root', `${FALSE}/license`, '--out', join(tmp, 'dist-json')],
    ]) {
      const result = await cli(...args, '--json');
      expect(result.code, args[0]).toBe(1);
      const problems = JSON.parse(result.stdout) as Record<string, unknown>[];
      expect(problems.length).toBeGreaterThan(0);
      for (const p of problems) {
        expect(Object.keys(p).sort(), args[0]).toEqual(['file', 'message', 'pointer', 'rule', 'severity']);
      }
    }
  });

  // From inside a checkout, "data/earth/CHL/manifest.json" names the checkout's own file, not the one under --root.
  it('files in problems (and in their messages) are named from the current folder, not from --root', async () => {
    const root = copyDataTree(`${FALSE}/stats`, tmp);
    const typed = relative(process.cwd(), root); // e.g. "../../tmp/geoshelf-cli-x/tree-y"
    expect(existsSync('data/earth/CHL/manifest.json')).toBe(true); // the trap
    const text = await cli('validate', '--root', typed, '--no-cache');
    const json = await cli('validate', '--root', typed, '--no-cache', '--json');
    const problems = JSON.parse(json.stdout) as { file: string; message: string }[];
    const printed = text.stderr.split('\n').filter((line) => line.includes(': /datasets/'));
    expect(printed).toHaveLength(6);
    const manifest = realpathSync(join(root, 'data/earth/CHL/manifest.json'));
    const data = realpathSync(join(root, 'data/earth/CHL/CHL_ADM1.geojson'));
    for (const [i, line] of printed.entries()) {
      const [file, , message] = line.split(': ');
      expect(realpathSync(file!)).toBe(manifest);
      expect(problems[i]!.file).toBe(file); // --json names it the same way
      const named = /^file (\S+) has /.exec(message!)![1]!;
      expect(realpathSync(named)).toBe(data);
      expect(line).toMatch(
        new RegExp(` \\(run: geoshelf manifest --root ${typed.replaceAll('.', '\\.')} CHL\\)$`),
      );
      expect(problems[i]!.message).toBe(line.slice(line.indexOf(': file ') + 2));
    }
    // manifest's results name the manifest the same way
    const check = await cli('manifest', '--root', typed, '--check', '--no-cache');
    for (const line of check.stdout.trim().split('\n')) {
      expect(realpathSync(line.split(': ')[0]!)).toBe(manifest);
    }
  });

  it('a bug → exit 70, "unexpected error" and the stack on stderr', async () => {
    // A stage that throws something other than a UserError is a bug.
    const spy = vi.spyOn(MeasurementCache, 'forRoot').mockImplementation(() => {
      throw new TypeError('boom');
    });
    try {
      const { code, stdout, stderr } = await cli('validate', '--root', `${FALSE}/stats`);
      expect([code, stdout]).toEqual([70, '']);
      const lines = stderr.split('\n');
      expect(lines[0]).toBe('geoshelf validate: unexpected error (a bug in geoshelf, please report it)');
      expect(lines[1]).toBe('TypeError: boom');
      expect(lines[2]).toMatch(/^\s+at /);
    } finally {
      spy.mockRestore();
    }
  });
});
