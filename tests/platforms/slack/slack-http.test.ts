import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createSlackAdapter } from '../../../src/platforms/slack/create-slack-adapter.js';
import { createHttpServer } from '../../../src/server/http-server.js';
import {
  eventCallback,
  HttpReply,
  sendSigned,
  startFakeSlack,
  visibleText,
} from '../../fakes/slack-server.js';
import { testConfig } from '../../helpers/config.js';
import { freePort } from '../../helpers/free-port.js';
import {
  ask,
  CHANNEL,
  mention,
  SIGNING_SECRET,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

/** The edit layout (answer message edited in place), which the tests below look at. */
const EDIT = { SLACK_STREAMING: 'edit' };

describe('slack adapter: HTTP endpoint, names, shutdown', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });
  const eventsUrl = () => `${h.httpUrl}/slack/events`;

  it('rejects bad and stale signatures with 401 and runs nothing', async () => {
    h = await startSlackHarness('http', { env: EDIT });
    h.model.script({ content: 'Signed and answered.' });
    const body = { json: eventCallback(mention('hello')) };
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    const rejected = [
      await sendSigned(eventsUrl(), body, { signingSecret: SIGNING_SECRET, signature: 'v0=deadbeef' }),
      await sendSigned(eventsUrl(), body, { signingSecret: 'some-other-secret' }),
      await sendSigned(eventsUrl(), body, { signingSecret: SIGNING_SECRET, timestamp: stale }),
    ];
    expect(rejected.map((r) => r.status)).toEqual([401, 401, 401]);
    await h.settle();
    expect(h.model.requests).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);

    // The same event, properly signed, is answered: the 401s were about the signatures.
    expect((await sendSigned(eventsUrl(), body, { signingSecret: SIGNING_SECRET })).status).toBe(200);
    await h.settle();
    expect(topLevel(h).map(visibleText)).toEqual(['Signed and answered.']);
  });

  it('answers the url_verification challenge Slack sends when the request URL is saved', async () => {
    h = await startSlackHarness('http');
    const res = await sendSigned(
      eventsUrl(),
      { json: { type: 'url_verification', token: 'legacy', challenge: 'challenge-123' } },
      { signingSecret: SIGNING_SECRET },
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('challenge-123');
  });

  it('looks each asker up once, and falls back to the user id when users.info fails', async () => {
    h = await startSlackHarness('http');
    h.model.script({ content: 'One.' }, { content: 'Two.' }, { content: 'Three.' });
    await ask(h, mention('first'));
    await ask(h, mention('second'));
    await ask(h, mention('third', { user: 'UNOBODY' }));
    expect(h.slack.callsTo('users.info').map((c) => c.args.user)).toEqual(['UALICE', 'UNOBODY']);
    const asked = h.model.requests.map((r) => r.body.messages.at(-1)!.content);
    expect(asked).toEqual(['[Alice] first', '[Alice] second', '[UNOBODY] third']);
  });

  it('answers a bare mention with a private hint instead of a run', async () => {
    h = await startSlackHarness('http');
    await ask(h, mention(''));
    expect(h.model.requests).toHaveLength(0);
    expect(h.slack.ephemerals).toEqual([
      expect.objectContaining({ channel: CHANNEL, user: 'UALICE', text: expect.stringContaining('Ask me') }),
    ]);
  });

  it('on shutdown, ends an answer still running with a note instead of leaving "Thinking…"', async () => {
    h = await startSlackHarness('http', { env: { ...EDIT, SHUTDOWN_GRACE_MS: '50' } });
    h.model.script({ hang: true });
    await h.deliver(eventCallback(mention('a slow question')));
    await vi.waitFor(() => expect(h.model.requests).toHaveLength(1)); // the model is thinking…
    await h.adapter.stop();
    expect(visibleText(topLevel(h)[0]!)).toMatch(/^:warning: I was restarted before I could finish/);
    // Once stopped, events are refused with 503, so Slack redelivers them to a replica still running.
    const late = await sendSigned(
      eventsUrl(),
      { json: eventCallback(mention('too late')) },
      { signingSecret: SIGNING_SECRET },
    );
    expect(late.status).toBe(503);
    expect(h.model.requests).toHaveLength(1);
  });

  it('retries an edit Slack rate-limits, and the answer still lands', async () => {
    h = await startSlackHarness('http', { env: EDIT });
    let limited = false;
    h.slack.override(({ method }) => {
      if (method !== 'chat.update' || limited) return undefined;
      limited = true;
      return new HttpReply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '0' });
    });
    h.model.script({ content: 'Worth the wait.' });
    await ask(h, mention('hello'));
    // The edit is retried; the last edit swaps the Stop button for the feedback buttons.
    const [first, ...later] = h.slack.callsTo('chat.update').map((c) => c.status);
    expect(first).toBe(429);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((status) => status === 200)).toBe(true);
    expect(h.rateLimits).toEqual(['slack']);
    expect(visibleText(topLevel(h)[0]!)).toBe('Worth the wait.');
  });

  /** The adapter on a do-nothing assistant, for start-up tests. */
  const bareAdapter = (env: Record<string, string>) => {
    const assistant = {
      ask: vi.fn(),
      access: vi.fn(),
      usage: vi.fn(),
      reset: vi.fn(),
      feedback: vi.fn(),
      memory: vi.fn(),
      health: vi.fn(),
      inFlight: vi.fn(),
      history: vi.fn(),
      tools: vi.fn(),
      toolsIn: vi.fn(),
      settings: vi.fn(),
      settingsIn: vi.fn(),
      close: vi.fn(),
      memoryCommand: vi.fn(),
    };
    const logger = createLogger({ level: 'silent', secrets: [] });
    const http = createHttpServer({ logger, readiness: () => [] });
    return createSlackAdapter({ config: testConfig({ PORT: '0', ...env }), assistant, logger, http });
  };

  it('fails to start naming SLACK_BOT_TOKEN when Slack rejects it', async () => {
    const slack = await startFakeSlack();
    try {
      slack.override(({ method }) =>
        method === 'auth.test' ? { ok: false, error: 'invalid_auth' } : undefined,
      );
      const adapter = bareAdapter({
        SLACK_BOT_TOKEN: 'xoxb-wrong',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
      });
      await expect(adapter.start()).rejects.toThrow(
        'SLACK_BOT_TOKEN: Slack rejected the token (invalid_auth); copy the Bot User OAuth Token (xoxb-…) again from OAuth & Permissions.',
      );
      expect(adapter.readiness()).toMatchObject({ ready: false });
      await adapter.stop();
    } finally {
      await slack.close();
    }
  });

  it('fails to start naming SLACK_APP_TOKEN when Socket Mode rejects it', async () => {
    const slack = await startFakeSlack();
    try {
      slack.override(({ method }) =>
        method === 'apps.connections.open' ? { ok: false, error: 'invalid_auth' } : undefined,
      );
      const adapter = bareAdapter({
        SLACK_BOT_TOKEN: 'xoxb-fine',
        SLACK_APP_TOKEN: 'xapp-wrong',
        SLACK_API_URL: slack.apiUrl,
      });
      await expect(adapter.start()).rejects.toThrow(
        'SLACK_APP_TOKEN: Slack rejected the token (invalid_auth)',
      );
      await adapter.stop();
    } finally {
      await slack.close();
    }
  });

  it('fails to start, after a few quick retries, when the Slack API cannot be reached', async () => {
    const port = await freePort();
    const adapter = bareAdapter({
      SLACK_BOT_TOKEN: 'xoxb-fine',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
    });
    await expect(adapter.start()).rejects.toThrow(
      `SLACK_API_URL: the Slack API at 127.0.0.1:${port} could not be reached`,
    );
    await adapter.stop();
  });
});
