// A process that talks to the real core as fast as it can, for crash tests: it asks "Remember fact
// <key>-<run>-<n>." in every key of WORKER_KEYS, one after another, and prints "ack <key> <n>" once each
// answer is back (and so its turn committed). Configured by the environment like the bot.
import { parseConfig } from '../../src/config.js';
import { createCore } from '../../src/core/create-core.js';
import { createLogger } from '../../src/core/logger.js';
import { coreOptionsFrom } from '../../src/core-options.js';
import { createStore } from '../../src/store/create-store.js';

const config = parseConfig(process.env);
const store = await createStore(config.DATABASE_URL);
const logger = createLogger({ level: config.LOG_LEVEL ?? 'silent', secrets: [] });
const core = await createCore({ ...coreOptionsFrom(config), store, usage: store, settings: store, logger });
const run = process.env.WORKER_RUN ?? '1';
const keys = (process.env.WORKER_KEYS ?? 'a').split(',');

await Promise.all(
  keys.map(async (key) => {
    for (let n = 1; ; n++) {
      const outcome = await core.assistant.ask(
        { key, author: 'w', text: `Remember fact ${key}-${run}-${n}.` },
        () => {},
      );
      if (outcome.status !== 'answered') {
        process.stderr.write(`unexpected outcome ${JSON.stringify(outcome)}\n`);
        process.exit(2);
      }
      process.stdout.write(`ack ${key} ${n}\n`);
    }
  }),
);
