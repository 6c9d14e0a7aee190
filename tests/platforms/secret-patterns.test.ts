import { DiscordAPIError } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { PLATFORMS } from '../../src/platforms/registry.js';

/** A logger as the bot makes it (src/index.ts), writing its lines here. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    secrets: [],
    patterns: PLATFORMS.flatMap((p) => p.secretPatterns ?? []),
    write: (line) => lines.push(line),
  });
  return { logger, text: () => lines.join('') };
}

describe("tokens in platforms' URLs never reach the logs", () => {
  it("scrubs a Discord interaction's token from a logged API error, keeping the rest of the URL", () => {
    const token = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldC10b2tlbi12YWx1ZQ';
    const url = `https://discord.com/api/v10/webhooks/1234567890/${token}/messages/@original`;
    const err = new DiscordAPIError({ message: 'Unknown Webhook', code: 10015 }, 10015, 404, 'PATCH', url, {
      body: { content: 'hi' },
    });
    const { logger, text } = capturingLogger();
    logger.warn({ err }, 'could not edit the answer');
    logger.info(`callback at /interactions/987654321/${token}/callback`);
    expect(text()).not.toContain(token);
    expect(text()).toContain('/webhooks/1234567890/[redacted]/messages/@original');
    expect(text()).toContain('/interactions/987654321/[redacted]/callback');
  });

  it("scrubs a Slack command's response_url", () => {
    const secret = 'Zx8vLq3mN0pR7sT2uW5yA1bC';
    const { logger, text } = capturingLogger();
    logger.warn({ url: `https://hooks.slack.com/commands/T0123ABCD/4567890123/${secret}` }, 'respond failed');
    expect(text()).not.toContain(secret);
    expect(text()).toContain('/commands/T0123ABCD/4567890123/[redacted]');
  });
});
