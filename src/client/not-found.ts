// The 404 page: a lowercase country URL goes to its country; otherwise the
// page's own search box searches places.
import { enhanceSearch } from './place-search.ts';

/**
 * On the 404 page: a lowercase country URL (/earth/chl/) goes to its country
 * (/earth/CHL/) when that page exists; otherwise the search box is wired.
 */
export async function enhanceNotFound(form: HTMLFormElement, base: string): Promise<void> {
  const root = new URL(base, location.href).pathname;
  const path = location.pathname.startsWith(root) ? location.pathname.slice(root.length) : '';
  const country = /^([a-z]+)\/([A-Za-z]{3})(\/.*)?$/.exec(path);
  if (country && country[2] !== country[2].toUpperCase()) {
    const target = `${base}${country[1]}/${country[2].toUpperCase()}${country[3] ?? '/'}`;
    const response = await fetch(target, { method: 'HEAD' }).catch(() => undefined);
    if (response?.ok) return location.replace(target + location.hash);
  }
  form.addEventListener('submit', (event) => event.preventDefault());
  const input = form.elements.namedItem('q') as HTMLInputElement;
  const search = enhanceSearch(input, base);
  const q = new URLSearchParams(location.search).get('q');
  if (q) {
    input.value = q;
    void search();
  }
}
