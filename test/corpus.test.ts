// Tests that read the shared corpus skip where it is absent, but fail in CI,
// which must have it (test/support/corpus.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { corpusPresent } from './support/corpus.ts';

const ABSENT = '/nonexistent/shared/corpus/world-geojson';

describe('the shared corpus', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('absent outside CI → its tests skip, saying why', () => {
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(corpusPresent(ABSENT)).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`skipping tests that read ${ABSENT}`));
    warn.mockRestore();
  });

  it('absent in CI → an error, so its tests fail instead of skipping', () => {
    vi.stubEnv('CI', 'true');
    expect(() => corpusPresent(ABSENT)).toThrow(`${ABSENT} is missing: CI needs the shared corpus`);
  });
});
