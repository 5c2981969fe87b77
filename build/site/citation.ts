// How to cite a release: CITATION.cff (Citation File Format 1.2.0, which
// GitHub, Zenodo and reference managers read) and citation.bib (a BibTeX
// entry) in the release's folder, and a "Cite this release" block on its
// front page. Each names the release's version and date, and credits the
// sources its manifests name, each with its licence and the countries it
// gives. The release's own URL is a template mark (ledger.ts's BASE_MARK)
// that `build` replaces when it publishes the release: with the site's
// origin (--site-url) the files name the URL; without one they cannot (CFF
// wants an absolute URL), and the url lines are left out
// (build/release/publish.ts).
import type { Manifest } from '../core/shared/manifest.ts';
import { markup, type Html } from './pages/html.ts';

/** What a release's citation says. */
export interface Citation {
  version: string; // or VERSION_MARK in a release's stored copy
  date: string; // e.g. "2026-12-01"
  url: string; // or BASE_MARK
  sources: CitedSource[];
}

interface CitedSource {
  name: string;
  url: string;
  license: string; // the manifest's: an SPDX identifier, "public-domain", or a mixed source's licences joined by ", "
  countries: string[]; // ISO3 codes (or a body's catalogue codes), sorted
}

const TITLE = 'geoshelf boundary catalogue';

/** Returns the sources `manifests` name, each once, with the countries it gives, most countries first. */
export function citedSources(manifests: readonly Manifest[]): CitedSource[] {
  const byKey = new Map<string, CitedSource>();
  for (const m of manifests) {
    const { name, url } = m.source;
    // A source of mixed licences names them (the schema's `licenses`).
    const license =
      m.source.license === 'mixed' && m.source.licenses ? m.source.licenses.join(', ') : m.source.license;
    const key = JSON.stringify([name, url, license]);
    const source = byKey.get(key) ?? { name, url, license, countries: [] };
    source.countries.push(m.iso_a3);
    byKey.set(key, source);
  }
  const sources = [...byKey.values()];
  for (const s of sources) s.countries.sort();
  return sources.sort((a, b) => b.countries.length - a.countries.length || (a.name < b.name ? -1 : 1));
}

/** An SPDX identifier CFF's schema accepts, or undefined (public domain and a list of licences are none). */
function spdx(license: string): string | undefined {
  return license === 'public-domain' || license === 'mixed' || license.includes(', ') ? undefined : license;
}

function licenceWords(license: string): string {
  return license === 'public-domain' ? 'public domain' : license;
}

/** A YAML scalar: JSON's double-quoted strings are YAML's too. */
const q = (text: string) => JSON.stringify(text);

/** Returns CITATION.cff: YAML written line by line, every scalar quoted. */
export function renderCff(c: Citation): string {
  const licences = [...new Set(c.sources.map((s) => spdx(s.license)))];
  const lines = [
    'cff-version: 1.2.0',
    `message: ${q('If you use this release, please cite it as below, and credit the sources it publishes (references).')}`,
    'type: dataset',
    `title: ${q(TITLE)}`,
    `version: ${q(c.version)}`,
    `date-released: ${q(c.date)}`,
    `url: ${q(c.url)}`,
    'authors:',
    `  - name: ${q(TITLE)}`,
    ...(licences.length > 0 && licences.every((l) => l !== undefined)
      ? ['license:', ...licences.map((l) => `  - ${q(l!)}`)]
      : []),
    'references:',
    ...c.sources.flatMap((s) => [
      '  - type: data',
      `    title: ${q(s.name)}`,
      '    authors:',
      `      - name: ${q(s.name)}`,
      `    url: ${q(s.url)}`,
      ...(spdx(s.license) ? [`    license: ${q(spdx(s.license)!)}`] : []),
      `    notes: ${q(`${licenceWords(s.license)}; ${s.countries.join(', ')}`)}`,
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

/** Escapes text for a BibTeX field in braces: its special characters, each as LaTeX writes it. */
function tex(text: string): string {
  return text.replace(/[\\{}%&$#_^~]/g, (ch) =>
    ch === '\\' ? '\\textbackslash{}' : ch === '^' ? '\\^{}' : ch === '~' ? '\\~{}' : `\\${ch}`,
  );
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Returns citation.bib: one @misc entry keyed by the version. */
export function renderBibtex(c: Citation): string {
  const sources = c.sources.map((s) => `${s.name} (${licenceWords(s.license)})`).join('; ');
  const key = `geoshelf-${c.version}`.replace(/[^A-Za-z0-9_.:-]/g, '-');
  const month = MONTHS[Number(c.date.slice(5, 7)) - 1];
  const fields = [
    `  title = {{${tex(TITLE)}}, release ${tex(c.version)}}`,
    `  author = {{${tex(TITLE)}}}`,
    `  year = {${c.date.slice(0, 4)}}`,
    ...(month ? [`  month = ${month}`] : []),
    `  version = {${tex(c.version)}}`,
    `  url = {${c.url}}`,
    `  note = {Sources: ${tex(sources)}}`,
  ];
  return `@misc{${key},\n${fields.join(',\n')},\n}\n`;
}

/** Returns the "Cite this release" block of a release's front page, linking the two files (`base`: the release's folder). */
export function citeBlock(base: string, c: Citation): Html {
  const sources = c.sources.map((s) => `${s.name} (${licenceWords(s.license)})`).join('; ');
  return markup`<section id="cite" class="cite" aria-labelledby="cite-h">
<h2 id="cite-h">Cite this release</h2>
<p><cite>${TITLE}</cite>, release ${c.version} (${c.date}), <a href="${base}">this page's address</a>. Sources: ${sources}.</p>
<p><a href="${base}CITATION.cff" download>CITATION.cff</a> · <a href="${base}citation.bib" download>BibTeX</a></p>
</section>
`;
}
