// Runs GEOS (shapely 1.8 on Debian's /usr/bin/python3) over many pairs at
// once: intersection areas and Hausdorff distances, the identity kernel's oracle.
import { execFileSync } from 'node:child_process';

const PYTHON = '/usr/bin/python3';
const SCRIPT = new URL('./overlap_oracle.py', import.meta.url).pathname;

export interface OracleRequest {
  files?: string[];
  pairs?: [string, number, string, number][]; // [fileA, featureA, fileB, featureB]
  polygons?: [unknown, unknown][]; // GeoJSON geometries
}

export interface OracleAnswer {
  pairs: (number | null)[]; // null: an input is invalid (GEOS refuses it) or has no geometry
  hausdorff: (number | null)[]; // degrees
  polygons: (number | null)[];
}

/** How long a test that asks GEOS may run: the Python process's own bound (a hang guard, not a speed check). */
export const ORACLE_BOUND_MS = 120_000;

/** Returns GEOS's answers to `request`, from one Python process (killed after two minutes). */
export function geos(request: OracleRequest): OracleAnswer {
  const out = execFileSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(request),
    maxBuffer: 1 << 30,
    timeout: ORACLE_BOUND_MS,
  });
  return JSON.parse(out.toString()) as OracleAnswer;
}
