// Reads one release of a root's ledger as build/release/ledger.ts assembles
// it (its record, registry, feed and published files, and which contents it
// stored), whatever record format it was written in: tests look at what a
// release holds, not at how it is stored.
import { expect } from 'vitest';
import type { RegistryUnit, ReleaseChange } from '../../build/core/shared/api.ts';
import { readLedger, readRegistry, type ReleaseRecord, type SiteFile } from '../../build/release/ledger.ts';

export async function ledgerRelease(
  root: string,
  version: string,
): Promise<{
  record: ReleaseRecord;
  registry: RegistryUnit[];
  site: SiteFile[];
  dir: string;
  changes: ReleaseChange[];
  /** The sha256s of the contents this release stored (no earlier release had them). */
  stored: Set<string>;
}> {
  const ledger = readLedger(root);
  expect(ledger.problems).toEqual([]);
  const release = ledger.releases.find((r) => r.record.version === version);
  if (!release) throw new Error(`no release ${version} in ${root}`);
  return {
    record: release.record,
    registry: readRegistry(release),
    site: release.site.files,
    dir: release.dir,
    changes: release.changes,
    stored: new Set(
      [...ledger.objects].filter(([, o]) => o.path.startsWith(`${release.dir}/`)).map(([sha]) => sha),
    ),
  };
}
