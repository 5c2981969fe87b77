#!/usr/bin/env node
// A stand-in for rclone in the tests of scripts/publish-cdn.sh: a remote
// ("cdn:bucket/path") is a folder under $FAKE_RCLONE_BUCKET. It does only
// what the script uses, as rclone's documentation describes it, and refuses
// anything else (exit 2), so the script cannot rely on what is not modelled:
//   copy SRC DST --ignore-existing [--files-from-raw LIST] [--copy-links]: sends each file
//     whose key DST lacks (an existing key is skipped, whatever it holds);
//     with --checksum instead, each file whose size or MD5 differs;
//   copyto SRC DST --ignore-existing: the same for one file;
//   sync SRC DST --checksum --exclude '/releases/**': sends each file whose
//     size or MD5 differs, deletes what SRC lacks; excluded paths untouched.
// A symbolic link is skipped unless --copy-links, which follows it (as rclone does).
// Remote to remote is a server-side copy. Each action is appended to
// $FAKE_RCLONE_LOG as "upload|copy|delete BYTES KEY".
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

const [command, ...args] = process.argv.slice(2);
const REMOTE = /^[A-Za-z0-9_-]+:/;

function refuse(message) {
  process.stderr.write(`fake rclone: ${message}\n`);
  process.exit(2);
}

/** Returns the folder an rclone path names, and whether it is on the remote. */
function place(path) {
  if (!REMOTE.test(path)) return { dir: path, remote: false };
  return { dir: join(process.env.FAKE_RCLONE_BUCKET, path.replace(REMOTE, '')), remote: true };
}

/**
 * Every file under `dir`. A symbolic link is skipped, as rclone skips one, unless `follow`
 * (--copy-links): then it is read as what it points to (dist/ links identical release folders).
 */
function files(dir, follow = false, prefix = '') {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    const kind = e.isSymbolicLink() ? (follow ? statSync(path) : undefined) : e;
    if (kind?.isDirectory()) out.push(...files(path, follow, `${prefix}${e.name}/`));
    else if (kind?.isFile()) out.push(`${prefix}${e.name}`);
  }
  return out;
}

const md5 = (file) => createHash('md5').update(readFileSync(file)).digest('hex');
const log = (action, bytes, key) =>
  appendFileSync(
    process.env.FAKE_RCLONE_LOG,
    `${action} ${bytes} ${relative(process.env.FAKE_RCLONE_BUCKET, key)}\n`,
  );

function send(from, to, fromRemote) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  log(fromRemote ? 'copy' : 'upload', statSync(to).size, to);
}

const positional = [];
const flags = new Map();
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (!a.startsWith('--')) positional.push(a);
  else if (a === '--ignore-existing' || a === '--checksum' || a === '--copy-links') flags.set(a, true);
  else if (a === '--files-from-raw' || a === '--exclude') flags.set(a, args[++i]);
  else refuse(`unsupported flag ${a}`);
}
if (positional.length !== 2) refuse(`${command}: expected SRC and DST`);
const [src, dst] = positional.map(place);
if (!dst.remote) refuse('the destination must be the remote');
const same = (from, to) => statSync(to).size === statSync(from).size && md5(to) === md5(from);
if (command === 'copy' || command === 'copyto') {
  if (flags.has('--ignore-existing') === flags.has('--checksum') || flags.has('--exclude'))
    refuse(`${command} is modelled with --ignore-existing or --checksum only`);
  if (command === 'copyto' && flags.has('--checksum'))
    refuse('copyto is modelled with --ignore-existing only');
  const list =
    command === 'copyto'
      ? ['']
      : flags.has('--files-from-raw')
        ? readFileSync(flags.get('--files-from-raw'), 'utf8').split('\n').filter(Boolean)
        : files(src.dir, flags.has('--copy-links'));
  for (const file of list) {
    const from = join(src.dir, file);
    const to = join(dst.dir, file);
    if (!existsSync(from)) refuse(`${from}: not found`);
    if (!existsSync(to) || (flags.has('--checksum') && !same(from, to))) send(from, to, src.remote);
  }
} else if (command === 'sync') {
  if (!flags.get('--checksum') || flags.get('--exclude') !== '/releases/**' || flags.has('--ignore-existing'))
    refuse("sync is modelled with --checksum --exclude '/releases/**' only");
  const kept = (file) => !file.startsWith('releases/');
  const wanted = new Set(files(src.dir, flags.has('--copy-links')).filter(kept));
  for (const file of wanted) {
    const from = join(src.dir, file);
    const to = join(dst.dir, file);
    if (existsSync(to) && same(from, to)) continue;
    send(from, to, src.remote);
  }
  for (const file of files(dst.dir).filter(kept)) {
    if (wanted.has(file)) continue;
    const key = join(dst.dir, file);
    log('delete', statSync(key).size, key);
    rmSync(key);
  }
} else refuse(`unsupported command ${command}`);
