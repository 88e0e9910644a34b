/**
 * mulberry32: a tiny seeded 32-bit PRNG (public domain, Tommy Ettinger). Good enough for
 * reproducible latency draws and fault decisions; not for cryptography.
 */
export type Rng = () => number;

/** Returns a generator of floats in [0, 1), fully determined by `seed` (any integer). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit hash of a string; used to derive per-request and per-stream seeds. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Independent stream `name` of a seed, so adding fault draws never shifts the latency draws. */
export function substream(seed: number, name: string): Rng {
  return mulberry32((seed ^ fnv1a(name)) >>> 0);
}
