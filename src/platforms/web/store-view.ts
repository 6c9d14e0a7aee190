/**
 * The bot's store seen as one of its ports, when the store handed to the web chat has that port's
 * `methods` (the whole store does; a test's partial one may not).
 */
export function storeView<T extends object>(store: unknown, ...methods: (keyof T & string)[]): T | undefined {
  const candidate = store as Record<string, unknown> | undefined;
  return candidate && methods.every((m) => typeof candidate[m] === 'function') ? (store as T) : undefined;
}
