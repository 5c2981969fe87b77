// Merges, splits and reorganisations: the components of the graph of
// significant overlaps that hold an unmatched unit, with the identity
// partners of their units. An unmatched unit joins a unit that has a
// partner only for area that partner lost (or gained): a split-off part, an
// absorbed neighbour, never a unit that merely overlaps an unchanged one;
// where several units hold half of it (units of one release overlapping),
// only those whose change it explains best. Every unit of a component is
// linked to at least one unit on the other side (by overlap, or as the
// partner that brought it in), so that the feed's entry and the registry's
// supersedes/superseded_by say the same thing (build/identity/registry.ts
// writes both from `links`).
import { area, type Matcher } from './matcher.ts';

/** A merge (one new unit), a split (one old unit) or a reorganisation, by positions. */
export interface Component {
  type: 'merged' | 'split' | 'reorganised';
  old: number[];
  new: number[];
  links: [number, number][]; // [old, new]: the new unit holds part of the old one
}

/** Returns the merges, splits and reorganisations, and unpairs every unit they hold. */
export function mergesAndSplits(m: Matcher): Component[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let p = parent.get(x) ?? x;
    if (p !== x) {
      p = find(p);
      parent.set(x, p);
    }
    return p;
  };
  const involved = new Set<string>();
  const partners: [number, number][] = [];
  const join = (o: number, n: number) => {
    const [a, b] = [find(`o${o}`), find(`n${n}`)];
    if (a !== b) parent.set(a, b);
    involved.add(`o${o}`);
    involved.add(`n${n}`);
  };
  // A unit with a partner can only have lost (old) or gained (new) what its partner does not hold:
  // an unmatched unit lying in an unchanged unit (two units of one release overlapping) is no part of it.
  const lost = (o: number) => (m.taken.has(o) ? area(m.olds[o]!) - m.overlap(o, m.taken.get(o)!) : Infinity);
  const gained = (n: number) =>
    m.identity.has(n) ? area(m.news[n]!) - m.overlap(m.identity.get(n)!, n) : Infinity;
  m.olds.forEach((u, o) => {
    if (m.taken.has(o) || !u.shape) return;
    const joins = (m.candOld.get(o) ?? []).filter(
      (n) => Math.min(m.overlap(o, n), gained(n)) >= m.t.significant * u.shape!.area,
    );
    for (const n of bestExplained(
      joins,
      (n) => m.overlap(o, n) / (m.identity.has(n) ? gained(n) : area(m.news[n]!)),
    ))
      join(o, n);
  });
  m.news.forEach((u, n) => {
    if (m.identity.has(n) || !u.shape) return;
    const joins = (m.candNew.get(n) ?? []).filter(
      (o) => Math.min(m.overlap(o, n), lost(o)) >= m.t.significant * u.shape!.area,
    );
    for (const o of bestExplained(
      joins,
      (o) => m.overlap(o, n) / (m.taken.has(o) ? lost(o) : area(m.olds[o]!)),
    ))
      join(o, n);
  });
  // The partners of involved units join their component.
  for (const key of [...involved]) {
    const i = Number(key.slice(1));
    const pair: [number, number] | undefined =
      key[0] === 'o' && m.taken.has(i)
        ? [i, m.taken.get(i)!]
        : key[0] === 'n' && m.identity.has(i)
          ? [m.identity.get(i)!, i]
          : undefined;
    if (pair) {
      join(...pair);
      partners.push(pair);
    }
  }
  const components = new Map<string, { old: number[]; new: number[] }>();
  for (const key of involved) {
    const root = find(key);
    const c = components.get(root) ?? { old: [], new: [] };
    (key[0] === 'o' ? c.old : c.new).push(Number(key.slice(1)));
    components.set(root, c);
  }
  const found: Component[] = [];
  for (const c of components.values()) {
    if (c.old.length < 2 && c.new.length < 2) continue; // a lone pair: identity, added or removed
    c.old.sort((a, b) => a - b);
    c.new.sort((a, b) => a - b);
    const type = c.new.length === 1 ? 'merged' : c.old.length === 1 ? 'split' : 'reorganised';
    found.push({ type, old: c.old, new: c.new, links: linksOf(m, c, partners) });
  }
  for (const c of found) {
    for (const o of c.old) m.unpair(o, undefined);
    for (const n of c.new) m.unpair(undefined, n);
  }
  return found;
}

/**
 * Returns the units of `xs` whose change an unmatched unit explains best:
 * the largest share of what each gained (or lost, or is, when unmatched).
 * Where the units of one release do not overlap, at most one unit holds
 * half of another and this keeps every candidate; where they do (a unit
 * scaled over its neighbours while two of them merge or one splits), the
 * unmatched unit belongs with the merge or split it makes, not with a unit
 * whose growth merely covers it.
 */
function bestExplained(xs: number[], share: (x: number) => number): number[] {
  if (xs.length < 2) return xs;
  const most = Math.max(...xs.map(share));
  return xs.filter((x) => share(x) >= most * (1 - 1e-9));
}

/**
 * Returns the links of a component: each old and new unit that share more
 * than 1 % of the smaller one, and each identity pair the component holds;
 * a unit still without a link is linked to the one it overlaps most.
 */
function linksOf(
  m: Matcher,
  c: { old: number[]; new: number[] },
  partners: [number, number][],
): [number, number][] {
  const set = new Set<string>();
  const links: [number, number][] = [];
  const link = (o: number, n: number) => {
    if (set.has(`${o},${n}`)) return;
    set.add(`${o},${n}`);
    links.push([o, n]);
  };
  for (const o of c.old) {
    for (const n of c.new) {
      if (m.overlap(o, n) > 0.01 * Math.min(area(m.olds[o]!), area(m.news[n]!))) link(o, n);
    }
  }
  const olds = new Set(c.old);
  for (const [o, n] of partners) if (olds.has(o)) link(o, n);
  const linkedOld = new Set(links.map(([o]) => o));
  const linkedNew = new Set(links.map(([, n]) => n));
  const most = <T>(xs: T[], f: (x: T) => number) => xs.reduce((a, b) => (f(b) > f(a) ? b : a));
  for (const o of c.old)
    if (!linkedOld.has(o))
      link(
        o,
        most(c.new, (n) => m.overlap(o, n)),
      );
  for (const n of c.new)
    if (!linkedNew.has(n))
      link(
        most(c.old, (o) => m.overlap(o, n)),
        n,
      );
  return links.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
