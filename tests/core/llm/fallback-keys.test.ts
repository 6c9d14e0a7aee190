import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { coreOptionsFrom } from '../../../src/core-options.js';
import { testConfig } from '../../helpers/config.js';

const FALLBACK = 'a@http://a.example/v1,b@http://b.example/v1,c@https://api.openai.com/v1';

describe('LLM_FALLBACK_KEYS, resolved at start', () => {
  it('gives each fallback its key in order: literal, none, or read from the named variable; each is scrubbed', () => {
    const config = testConfig({ LLM_FALLBACK: FALLBACK, LLM_FALLBACK_KEYS: 'literal-key-0001,,$THIRD_KEY' });
    const options = coreOptionsFrom(config, [], { THIRD_KEY: 'from-env-key-0003' });

    expect(options.fallback?.endpoints.map((e) => [e.model, e.baseURL, e.apiKey])).toEqual([
      ['a', 'http://a.example/v1', 'literal-key-0001'],
      ['b', 'http://b.example/v1', undefined],
      ['c', 'https://api.openai.com/v1', 'from-env-key-0003'],
    ]);
    // LLM_PROMPT_CACHE_KEY=auto: only OpenAI's own API gets prompt_cache_key.
    expect(options.fallback?.endpoints.map((e) => e.promptCacheKey)).toEqual([false, false, true]);
    expect(options.redact('a literal-key-0001 and from-env-key-0003')).toBe('a [redacted] and [redacted]');
    expect(options.fallback).toMatchObject({ afterMs: 30_000, cooldownMs: 60_000 });
  });

  it('fails at start, naming the entry, when a variable is not set or there are more keys than fallbacks', () => {
    const unset = testConfig({ LLM_FALLBACK: FALLBACK, LLM_FALLBACK_KEYS: ',$MISSING_KEY' });
    expect(() => coreOptionsFrom(unset, [], {})).toThrow(ConfigError);
    expect(() => coreOptionsFrom(unset, [], {})).toThrow(/entry 2 reads \$MISSING_KEY, which is not set/);

    const extra = testConfig({
      LLM_FALLBACK: 'a@http://a.example/v1',
      LLM_FALLBACK_KEYS: 'key-one-1,key-two-2',
    });
    expect(() => coreOptionsFrom(extra, [], {})).toThrow(/2 keys for 1 LLM_FALLBACK entries/);
  });

  it('without LLM_FALLBACK there is no chain', () => {
    expect(coreOptionsFrom(testConfig(), [], {}).fallback).toBeUndefined();
  });
});
