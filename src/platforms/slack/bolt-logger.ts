import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';

/** Bolt's (and Socket Mode's) log lines routed into our logger, so secrets are redacted there too. */
export function createBoltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ platform: 'slack', source: 'bolt' });
  const line = (msg: unknown[]) => msg.map((m) => (m instanceof Error ? m.message : String(m))).join(' ');
  return {
    debug: (...msg) => log.debug(line(msg)),
    info: (...msg) => log.info(line(msg)),
    warn: (...msg) => log.warn(line(msg)),
    error: (...msg) => log.error(line(msg)),
    // The level is LOG_LEVEL's to decide; Bolt's attempts to change it are ignored.
    setLevel: () => {},
    getLevel: () => {
      switch (log.level) {
        case 'trace':
        case 'debug':
          return LogLevel.DEBUG;
        case 'info':
          return LogLevel.INFO;
        case 'warn':
          return LogLevel.WARN;
        default:
          return LogLevel.ERROR;
      }
    },
    setName: () => {},
  };
}
