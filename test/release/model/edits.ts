// The edits of the model scripts, each checking its preconditions on the
// geometry and recording what the truth must say (test/release/model/script.ts
// picks them at random by weight).
import {
  areaOf,
  boxOf,
  cut,
  densify,
  jitter,
  metresPerDegree,
  moveSharedBorder,
  overlapArea,
  round6,
  scale,
  translate,
  union,
  type MP,
  type Pos,
} from './geometry.ts';
import { shuffled, type ModelUnit } from './level.ts';
import { MAX_UNIFORM, MIN_UNITS, type Writer } from './writer.ts';

/** Returns a spelling of `name` that differs only in case, diacritics, hyphens or spaces. */
function respell(name: string, random: () => number): string {
  const plain = name.normalize('NFD').replace(/\p{M}/gu, '');
  const options = [
    name.toUpperCase(),
    name.toLowerCase(),
    plain,
    name.replaceAll(' ', '-'),
    name.replaceAll(' ', ''),
    name.replaceAll('-', ' '),
  ].filter((s) => s !== name);
  return options[Math.floor(random() * options.length)]!;
}

export type Edit = (w: Writer) => boolean;

export const EDITS: [string, number, Edit][] = [
  ['rename', 3, rename],
  ['recode', 2, recode],
  ['swap codes', 2, swapCodes],
  ['rotate labels', 1, rotateLabels],
  ['attributes', 2, attributes],
  ['move border', 3, moveBorder],
  ['move or scale', 2, moveOrScale],
  ['re-digitise', 2, redigitise],
  ['merge', 2, merge],
  ['split', 2, split],
  ['remove', 2, remove],
  ['add', 1, add],
  ['restore', 2, restore],
];

function rename(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'label')));
  if (!u) return false;
  const spelling = w.random() < 0.4;
  const name = spelling ? respell(u.name, w.random) : w.newName();
  if (spelling) w.respelt.add(u.token);
  w.labelled.add(u.token);
  w.replace(u, { name });
  w.lines.push(`${spelling ? 'respell' : 'rename'} ${u.token} "${u.name}" → "${name}"`);
  return true;
}

function recode(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'label')));
  if (!u) return false;
  const code = w.newCode();
  w.labelled.add(u.token);
  w.replace(u, { code });
  w.lines.push(`recode ${u.token} ${u.code} → ${code}`);
  return true;
}

function swapCodes(w: Writer): boolean {
  const free = shuffled(
    w.units.filter((x) => w.free(x, 'label')),
    w.random,
  );
  if (free.length < 2) return false;
  const [a, b] = [free[0]!, free[1]!];
  w.labelled.add(a.token).add(b.token);
  w.replace(a, { code: b.code });
  w.replace(b, { code: a.code });
  w.lines.push(`swap codes of ${a.token} (${a.code}) and ${b.token} (${b.code})`);
  return true;
}

/** Rotates the codes and names of three units (each takes the next one's), sometimes re-digitising them too. */
function rotateLabels(w: Writer): boolean {
  const free = shuffled(
    w.units.filter((x) => w.free(x, 'label') && w.free(x, 'geometry')),
    w.random,
  );
  if (free.length < 3) return false;
  const three = free.slice(0, 3);
  const redraw = w.uniform < MAX_UNIFORM && w.random() < 0.3;
  if (redraw) w.uniform++;
  three.forEach((u, i) => {
    const next = three[(i + 1) % 3]!;
    w.labelled.add(u.token);
    w.rotated.add(u.token);
    w.replace(u, { code: next.code, name: next.name });
    if (redraw) {
      w.shaped.set(u.token, 'redigitised');
      w.replace(u, { geometry: jitter(u.geometry, w.random, 3) });
    }
  });
  w.lines.push(
    `rotate labels ${three.map((u) => `${u.token} (${u.code} "${u.name}")`).join(' ← ')}${redraw ? ', re-digitised' : ''}`,
  );
  return true;
}

function attributes(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => !w.frozen.has(x.token) && !w.changedAttributes(x)));
  if (!u) return false;
  const population = u.population + 1 + Math.floor(w.random() * 10_000);
  w.replace(u, { population });
  w.lines.push(`attributes ${u.token} population ${u.population} → ${population}`);
  return true;
}

function moveBorder(w: Writer): boolean {
  for (const [a, b] of shuffled(w.neighbours('geometry'), w.random)) {
    const metres = 500 + w.random() * 19_500;
    const side = w.random() < 0.5 ? 1 : -1;
    const others = w.units.filter((u) => u !== a && u !== b).map((u) => u.geometry);
    const moved = moveSharedBorder(a.geometry, b.geometry, others, metres, side);
    if (!moved) continue;
    w.shaped.set(a.token, 'boundary').set(b.token, 'boundary');
    w.replace(a, { geometry: moved[0] });
    w.replace(b, { geometry: moved[1] });
    w.lines.push(
      `move the border of ${a.token} and ${b.token} by ${Math.round(metres)} m into ${side > 0 ? b.token : a.token}`,
    );
    return true;
  }
  return false;
}

/**
 * Moves a unit whole by 0.5–20 km (at most a quarter of its width), or
 * scales it by 0.6–0.85 or 1.2–2 (the radius doubled); it keeps 60 % of the smaller of its two
 * drawings in common (its code names it by overlap, even when renamed), or
 * the move is made smaller.
 */
function moveOrScale(w: Writer): boolean {
  if (w.uniform >= MAX_UNIFORM) return false;
  const u = w.pick(w.units.filter((x) => w.free(x, 'geometry') && !x.displaced));
  if (!u) return false;
  const move = w.random() < 0.5;
  const [kx] = metresPerDegree(u.geometry);
  const b = boxOf(u.geometry);
  const most = Math.min(20_000, 0.25 * (b[2] - b[0]) * kx);
  let metres = 500 + w.random() * (most - 500);
  const angle = 2 * Math.PI * w.random();
  let k = w.random() < 0.5 ? 0.6 + 0.25 * w.random() : 1.2 + 0.8 * w.random();
  for (let tries = 0; tries < 4; tries++, metres = Math.max(500, metres / 2), k = 1 + (k - 1) / 2) {
    const geometry = move
      ? translate(u.geometry, metres * Math.cos(angle), metres * Math.sin(angle))
      : scale(u.geometry, k);
    const least = Math.min(areaOf(geometry), areaOf(u.geometry));
    if (overlapArea(geometry, u.geometry) < 0.6 * least) continue;
    const removed = w.structural.flatMap((t) => (t.type === 'removed' ? [t.unit] : []));
    const gone = w.retired.filter((r) => removed.includes(r.token)).map((r) => r.geometry);
    if (gone.some((g) => covered(g, [geometry]))) continue;
    w.uniform++;
    w.shaped.set(u.token, 'boundary');
    w.replace(u, { geometry, displaced: true });
    w.lines.push(
      move ? `move ${u.token} whole by ${Math.round(metres)} m` : `scale ${u.token} by ${k.toFixed(3)}`,
    );
    return true;
  }
  return false;
}

function redigitise(w: Writer): boolean {
  if (w.uniform >= MAX_UNIFORM) return false;
  const u = w.pick(w.units.filter((x) => w.free(x, 'geometry')));
  if (!u) return false;
  w.uniform++;
  w.shaped.set(u.token, 'redigitised');
  const points = u.geometry.flat().reduce((n, ring) => n + ring.length, 0);
  if (points < 100 && w.random() < 0.5) {
    w.replace(u, { geometry: densify(u.geometry) });
    w.lines.push(`re-digitise ${u.token}: a vertex at the middle of every edge`);
  } else {
    const metres = 0.5 + 2.5 * w.random();
    w.replace(u, { geometry: jitter(u.geometry, w.random, metres) });
    w.lines.push(`re-digitise ${u.token}: every vertex moved by up to ${metres.toFixed(1)} m`);
  }
  return true;
}

function merge(w: Writer): boolean {
  if (w.units.length <= MIN_UNITS) return false;
  const pair = w.pick(w.neighbours('any'));
  if (!pair) return false;
  const [a, b] = pair;
  const token = w.newToken();
  const keep = w.random() < 0.6;
  const merged: ModelUnit = {
    token,
    code: keep ? a.code : w.newCode(),
    name: keep ? a.name : w.newName(),
    population: a.population + b.population,
    geometry: union(a.geometry, b.geometry),
  };
  const i = w.units.indexOf(w.units.find((u) => u.token === a.token)!);
  w.units.splice(i, 1, merged);
  w.units.splice(
    w.units.findIndex((u) => u.token === b.token),
    1,
  );
  w.frozen.add(token);
  w.structural.push({ type: 'merged', old: [a.token, b.token], new: [token] });
  w.lines.push(
    `merge ${a.token} (${a.code}) and ${b.token} (${b.code}) into ${token} (${merged.code} "${merged.name}")`,
  );
  return true;
}

function split(w: Writer): boolean {
  const u = w.pick(w.units.filter((x) => w.free(x, 'any')));
  if (!u) return false;
  let parts: [MP, MP] | undefined;
  for (let tries = 0; !parts && tries < 5; tries++) parts = cut(u.geometry, Math.PI * w.random(), 0.3);
  if (!parts) return false;
  const choice = w.random();
  const first: ModelUnit = {
    token: w.newToken(),
    code: choice < 0.5 ? u.code : w.newCode(),
    name: choice < 0.75 ? u.name : w.newName(),
    population: Math.floor(u.population / 2),
    geometry: parts[0],
  };
  const second: ModelUnit = {
    token: w.newToken(),
    code: w.newCode(),
    name: w.newName(),
    population: u.population - first.population,
    geometry: parts[1],
  };
  w.units.splice(w.units.indexOf(w.units.find((x) => x.token === u.token)!), 1, first, second);
  w.frozen.add(first.token).add(second.token);
  w.structural.push({ type: 'split', old: [u.token], new: [first.token, second.token] });
  w.lines.push(
    `split ${u.token} (${u.code}) into ${first.token} (${first.code}) and ${second.token} (${second.code})`,
  );
  return true;
}

/** Whether `g` lies 40 % or more inside one of `others`: a removal there is an absorption (see the limits). */
function covered(g: MP, others: MP[]): boolean {
  const least = 0.4 * areaOf(g);
  return others.some((o) => overlapArea(g, o) >= least);
}

function remove(w: Writer): boolean {
  if (w.units.length <= MIN_UNITS) return false;
  const u = w.pick(
    w.units.filter(
      (x) =>
        w.free(x, 'any') &&
        !covered(
          x.geometry,
          // Moved or scaled whole in this release or an earlier one, as they are now or as the
          // release found them (a displaced unit split or merged in this release is gone from w.units).
          [...w.units, ...w.before.units]
            .filter((y) => y.token !== x.token && y.displaced)
            .map((y) => y.geometry),
        ),
    ),
  );
  if (!u) return false;
  w.units.splice(w.units.indexOf(u), 1);
  w.retired.push(w.before.units.find((x) => x.token === u.token)!);
  w.frozen.add(u.token);
  w.structural.push({ type: 'removed', unit: u.token });
  w.lines.push(`remove ${u.token} (${u.code} "${u.name}")`);
  return true;
}

/** Adds a unit in a place no unit ever held (east of the grid). */
function add(w: Writer): boolean {
  const slot = w.slots++;
  const [cx, cy] = [-67.5 + 0.9 * (slot % 6), -39.2 + 0.9 * Math.floor(slot / 6)];
  const ring: Pos[] = [];
  for (let k = 0; k < 10; k++) {
    const r = 0.25 * (0.8 + 0.4 * w.random());
    const t = (2 * Math.PI * k) / 10;
    ring.push([round6(cx + r * Math.cos(t)), round6(cy + r * Math.sin(t))]);
  }
  const u: ModelUnit = {
    token: w.newToken(),
    code: w.newCode(),
    name: w.newName(),
    population: 1000 + Math.floor(w.random() * 50_000),
    geometry: [[[...ring, ring[0]!]]],
  };
  w.units.push(u);
  w.frozen.add(u.token);
  w.structural.push({ type: 'added', unit: u.token });
  w.lines.push(`add ${u.token} (${u.code} "${u.name}")`);
  return true;
}

/** Brings back a removed unit where no unit now lies (less than 5 % of it covered), with its code. */
function restore(w: Writer): boolean {
  const clear = (r: ModelUnit, units: ModelUnit[]) =>
    units.every((u) => overlapArea(u.geometry, r.geometry) < 0.05 * areaOf(r.geometry));
  const candidates = w.retired.filter(
    (r) => !w.frozen.has(r.token) && clear(r, w.units) && clear(r, w.before.units),
  );
  const r = w.pick(candidates);
  if (!r) return false;
  w.retired.splice(w.retired.indexOf(r), 1);
  const derived = w.before.units
    .filter((u) => overlapArea(u.geometry, r.geometry) > 0.01 * areaOf(r.geometry))
    .map((u) => u.token);
  w.units.push({ ...r });
  w.frozen.add(r.token);
  w.structural.push({
    type: 'added',
    unit: r.token,
    restored: true,
    ...(derived.length ? { derived_from: derived } : {}),
  });
  w.lines.push(`restore ${r.token} (${r.code} "${r.name}")`);
  return true;
}
