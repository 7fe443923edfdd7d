/** The load's random draws: a chance, an item, a whole number in a range, a weighted item, a number sent as a string. */

export const chance = (p: number) => Math.random() < p;
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
export const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
/** Numbers may be sent as numeric strings: now and then, do. */
export const num = (n: number): number | string => (chance(0.2) ? String(n) : n);

export function weighted<T>(items: Array<[T, number]>): T {
  let r = Math.random() * items.reduce((a, [, w]) => a + w, 0);
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1][0];
}
