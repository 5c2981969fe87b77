// Browser entry of the catalogue (bundled by vite into dist/assets/): it only
// wires each page's parts. Every page works without it; this only enhances.
// The index: its table and the place search; the 404 page: its search; the
// country pages: copy buttons, and the map and units list as chunks of their own.
import './style.css';
import './atlas.css';
import { enhanceIndex } from './catalogue-table.ts';
import { enhanceCopyButtons } from './copy-buttons.ts';
import { enhanceNotFound } from './not-found.ts';

/** The site's base path or URL, e.g. "/" or "/catalogue/" (from <body data-base>). */
const BASE = document.body.dataset.base ?? '/';

const form = document.getElementById('filters');
const table = document.getElementById('catalogue');
if (form instanceof HTMLFormElement && table instanceof HTMLTableElement) enhanceIndex(form, table, BASE);
const siteSearch = document.getElementById('site-search');
if (siteSearch instanceof HTMLFormElement) void enhanceNotFound(siteSearch, BASE);
enhanceCopyButtons();
const figure = document.querySelector<HTMLElement>('figure.map[data-maps]');
if (figure) void import('./map.ts').then(({ enhanceMap }) => enhanceMap(figure));
const units = document.getElementById('units');
if (units?.dataset.api) void import('./units-table.ts').then(({ enhanceUnits }) => enhanceUnits(units));
