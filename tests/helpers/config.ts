import { type Config, parseConfig } from '../../src/config.js';

/** A valid Config for tests: defaults plus a dummy model URL, with `overrides` applied as env strings. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return parseConfig({
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}
