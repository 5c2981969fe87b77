// Reads one release of a root's ledger as build/release/ledger.ts assembles
// it (its record, registry and published files), whatever record format it
// was written in: tests look at what a release holds, not at how it is stored.
import { expect } from 'vitest';
import type { RegistryUnit } from '../../src/shared/api.ts';
import { readLedger, readRegistry, type ReleaseRecord, type SiteFile } from '../../build/release/ledger.ts';

export async function ledgerRelease(
  root: string,
  version: string,
): Promise<{ record: ReleaseRecord; registry: RegistryUnit[]; site: SiteFile[]; dir: string }> {
  const ledger = readLedger(root);
  expect(ledger.problems).toEqual([]);
  const release = ledger.releases.find((r) => r.record.version === version);
  if (!release) throw new Error(`no release ${version} in ${root}`);
  return {
    record: release.record,
    registry: readRegistry(root, release),
    site: release.site.files,
    dir: release.dir,
  };
}
