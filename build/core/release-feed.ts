// What `build` publishes of one release's feed, shared by the stage that
// reads it from the ledger (build/release/publish.ts) and the pages that show
// it (build/site/): a type only.
import type { RegistryUnit, ReleaseChange } from './shared/api.ts';

/** One release's changes, with the units they name, by ID. */
export interface ReleaseFeed {
  version: string;
  previous: string | null;
  changes: ReleaseChange[];
  units: Map<string, RegistryUnit>; // by ID: every unit ever given, as of the latest release
  countries: Set<string>; // the ISO3 codes of the countries this release holds
}
