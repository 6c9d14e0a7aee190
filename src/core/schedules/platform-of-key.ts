/** The platform that delivers a conversation's runs: the first part of its key (`discord`, `slack`, …). */
export function platformOfKey(key: string): string {
  return key.slice(0, Math.max(0, key.indexOf(':')));
}
