/** Remembers keys seen (at most `max`, oldest forgotten first): true the first time a key is given. */
export function createFirstTime(max = 10_000): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > max) seen.delete(seen.values().next().value!);
    return true;
  };
}
