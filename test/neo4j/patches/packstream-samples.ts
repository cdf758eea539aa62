/**
 * Deterministic random values for the PackStream patches' tests (fast-pack, fast-unpack): the same seed
 * gives the same values, so a failure can be replayed.
 */

/** Characters of 1 to 4 UTF-8 bytes, and JSON's escapes. */
export const TEXT_ALPHABET = ['a', 'Z', '0', ':', '/', '.', '_', 'é', 'ß', '✓', '中', '😀', ' ', '"', '\\'];

export function seededSamples(seed: number, alphabet: readonly string[] = TEXT_ALPHABET) {
  let state = seed;
  const rand = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  /** `n` characters of the alphabet. */
  const text = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
  /** A list or map of up to 20 entries per level, `depth` levels at most, its leaves from `leaf`. */
  const nested = (depth: number, leaf: () => unknown): unknown => {
    if (depth === 0 || rand() < 0.3) return leaf();
    if (rand() < 0.5) return Array.from({ length: Math.floor(rand() * 20) }, () => nested(depth - 1, leaf));
    return Object.fromEntries(
      Array.from({ length: Math.floor(rand() * 20) }, (_, i) => [`${text(i % 5)}k${i}`, nested(depth - 1, leaf)]),
    );
  };
  return { rand, text, nested };
}
