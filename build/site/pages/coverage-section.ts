// A country page's "How the units fit together" section: each checked
// level's coverage figures as validate measured them (docs/geometry.md).
import type { LevelCoverageFigures } from '../../core/shared/api.ts';
import type { Manifest } from '../../core/shared/manifest.ts';
import {
  datasetCoverage,
  describeCount,
  describeShare,
  isCleanCoverage,
  type CoverageByLevel,
} from '../coverage-status.ts';
import { formatInt, markup, type Html } from './html.ts';

function nestingCell(f: LevelCoverageFigures): Html {
  const n = f.nesting;
  if (!n) return markup`–`;
  const outside = n.units_outside
    ? markup`; ${formatInt(n.units_outside)} ${n.units_outside === 1 ? 'unit lies' : 'units lie'} more than 1 % outside ${n.units_outside === 1 ? 'its' : 'their'} parent`
    : '';
  return markup`covers ${describeShare(n.parent_covered)} of ${n.parent_level}; ${describeShare(n.outside)} of the level outside it${outside}`;
}

function levelRow(level: string, f: LevelCoverageFigures): Html {
  const verdict = isCleanCoverage(f)
    ? markup`<span class="coverage-clean">clean</span>`
    : markup`<span class="coverage-defects">defects</span>`;
  return markup`<tr>
<th scope="row" data-label="Level">${level}</th>
<td data-label="Coverage">${verdict}</td>
<td data-label="Units" class="num">${formatInt(f.units)}</td>
<td data-label="Overlaps">${describeCount(f.overlaps.count, 'overlap', f.overlaps.area_m2)}</td>
<td data-label="Gaps">${describeCount(f.gaps.count, 'gap', f.gaps.area_m2)}</td>
<td data-label="Mismatched edges">${describeCount(f.edges, 'mismatched edge')}</td>
<td data-label="Nesting">${nestingCell(f)}</td>
</tr>
`;
}

/** Returns the section of a country's coverage figures, or nothing when no level of it was checked. */
export function coverageSection(m: Manifest, byLevel: CoverageByLevel | undefined): Html {
  const rows = m.datasets.flatMap((d) => {
    const f = datasetCoverage(m, d, byLevel);
    return f ? [{ level: d.level, f }] : [];
  });
  if (rows.length === 0) return markup``;
  const width = formatInt(rows[0]!.f.gap_width_m);
  return markup`<section id="coverage" aria-labelledby="coverage-h">
<h2 id="coverage-h">How the units fit together</h2>
<p>Each level checked as a coverage when the catalogue was built: units that overlap, gaps narrower than ${width} m left between them, neighbours whose edges do not match vertex for vertex, and how the level lies in the level above. Areas are on the body's sphere.</p>
<div class="table-scroll"><table class="stack coverage">
<caption class="visually-hidden">Coverage of ${m.name.en}'s levels</caption>
<thead><tr><th scope="col">Level</th><th scope="col">Coverage</th><th scope="col" class="num">Units</th><th scope="col">Overlaps</th><th scope="col">Gaps</th><th scope="col">Mismatched edges</th><th scope="col">Nesting</th></tr></thead>
<tbody>
${rows.map(({ level, f }) => levelRow(level, f))}</tbody>
</table></div>
</section>
`;
}
