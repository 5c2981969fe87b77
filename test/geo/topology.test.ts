import { describe, expect, it } from 'vitest';
import { buildTopology, DoubleList, IntList, QuantisedRings } from '../../build/geo/topology.ts';

/** Returns the topology of integer rings (a grid of one step per unit). */
function topologyOf(rings: number[][][]) {
  const q = new QuantisedRings({ x0: 0, y0: 0, kx: 1, ky: 1 }, 64);
  for (const ring of rings) q.addRing([...ring, ring[0]]);
  return { q, topology: buildTopology(q) };
}

describe('junctions', () => {
  it('a position met again with other neighbours is a junction, even when the neighbour pairs hash alike', () => {
    // (946,1427)–(16,169) and (1722,1579)–(472,1649) gave the same order-free hash in the
    // table's first form, which kept one hash per position: J was not cut.
    const J = [1000, 1000];
    const { q, topology } = topologyOf([
      [[946, 1427], J, [16, 169]],
      [[1722, 1579], J, [472, 1649]],
    ]);
    for (let r = 0; r < 2; r++) {
      const ref = topology.ringArcs.data[topology.ringArcStart.data[r]];
      const first = topology.arcPoint(ref < 0 ? ~ref : ref, 0);
      expect([q.x.data[first], q.y.data[first]]).toEqual(J); // each ring's arc starts at J
    }
  });

  it('a border two rings run along in opposite directions is one arc, their other sides two more', () => {
    const { topology } = topologyOf([
      [
        [0, 0],
        [2, 0],
        [2, 2],
        [0, 2],
      ],
      [
        [2, 0],
        [4, 0],
        [4, 2],
        [2, 2],
      ],
    ]);
    expect(topology.arcs).toBe(3);
  });
});

describe('growable lists', () => {
  it('a list grows past its capacity, even from 0, keeping its values and its element type', () => {
    const ints = new IntList(0);
    const doubles = new DoubleList(2);
    for (let i = 0; i < 100; i++) {
      ints.push(i + 0.5);
      doubles.push(i + 0.5);
    }
    expect(ints.length).toBe(100);
    expect(Array.from(ints.data.subarray(0, 100))).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(ints.data).toBeInstanceOf(Int32Array);
    expect(doubles.length).toBe(100);
    expect(Array.from(doubles.data.subarray(0, 100))).toEqual(Array.from({ length: 100 }, (_, i) => i + 0.5));
    expect(doubles.data).toBeInstanceOf(Float64Array);
  });
});
