// The catalogue's bodies as its pages name them: the front page lists the
// Earth's manifests and links every other body that has some, and each such
// body (the Moon, Mars) gets an index page of its own at {body}/.
import type { Body, Manifest } from '../../core/shared/manifest.ts';
import { formatInt, markup, type Html } from './html.ts';

/** A body's name in running text, e.g. "the Moon". */
export const BODY_NAMES: Record<Body, string> = { earth: 'Earth', moon: 'the Moon', mars: 'Mars' };

/** A body's name as a heading, e.g. "The Moon". */
export const BODY_HEADINGS: Record<Body, string> = { earth: 'Earth', moon: 'The Moon', mars: 'Mars' };

/** Which body an index page lists, and the other bodies of the catalogue it links to. */
export interface IndexBodies {
  body: Body; // "earth" for the front page
  others: { body: Body; count: number }[]; // each other body with manifests, and how many
}

/** Returns the index page's path of a body inside dist/: "" for Earth (the front page), else e.g. "mars/". */
export function bodyIndexPage(body: Body): string {
  return body === 'earth' ? '' : `${body}/`;
}

/** Returns the line that links the other bodies, e.g. "Also in the catalogue: Mars (1 catalogue) · the Moon (1 catalogue)". */
export function bodiesNav(base: string, { body, others }: IndexBodies): Html | string {
  if (others.length === 0) return '';
  const links = others.map(({ body: other, count }, i) => {
    const label = other === 'earth' ? 'Earth’s countries and territories' : BODY_HEADINGS[other];
    const n = other === 'earth' ? '' : ` (${formatInt(count)} ${count === 1 ? 'catalogue' : 'catalogues'})`;
    return markup`${i > 0 ? ' · ' : ''}<a href="${base}${bodyIndexPage(other)}">${label}</a>${n}`;
  });
  const lead = body === 'earth' ? 'Other bodies in the catalogue:' : 'Also in the catalogue:';
  return markup`<nav class="bodies" aria-label="Bodies"><p>${lead} ${links}</p></nav>
`;
}

/** Returns the breadcrumb's body item: the front page filtered to it for the Earth, else the body's own page. */
export function bodyCrumb(base: string, m: Manifest): Html {
  return m.body === 'earth'
    ? markup`<li><a href="${base}?body=${m.body}">${m.body}</a></li>`
    : markup`<li><a href="${base}${bodyIndexPage(m.body)}">${BODY_HEADINGS[m.body]}</a></li>`;
}
