import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../src/platforms/shared/wording.js';
import type { FakeOpenAI } from '../fakes/openai-server.js';
import { startHttpMcpServer } from '../mcp/fixtures/http-mcp-server.js';
import { writeMcpJson } from '../mcp/mcp-fixture.js';

/**
 * What every platform adapter's test harness provides: a way to talk to the real adapter as a user
 * would (through the platform's fake server or the terminal's streams) and to read what users see.
 */
export interface AdapterHarness {
  /** The scripted model behind the real core the adapter is wired to. */
  model: FakeOpenAI;
  /**
   * Asks `text` as a user in `conversation` (an opaque harness name such as 'a' or 'b'; each maps to a
   * distinct channel), and resolves with what users see once the bot is done.
   */
  ask(text: string, conversation?: string): Promise<VisibleExchange>;
  /** Runs the platform's reset command in `conversation`; resolves with the confirmation shown. */
  reset(conversation?: string): Promise<string>;
  /** Runs the platform's memory command in `conversation`; resolves with the report shown. */
  memory(conversation?: string): Promise<string>;
  /** Runs the platform's usage command in `conversation`; resolves with the report shown. */
  usage(conversation?: string): Promise<string>;
  /** Runs the platform's tools command in `conversation`; resolves with the list shown. */
  tools(conversation?: string): Promise<string>;
  close(): Promise<void>;
}

/** Builds a harness; `env` adds settings (strings, as in .env) to the bot it starts. */
export type HarnessFactory = (env?: Record<string, string>) => Promise<AdapterHarness>;

/** What differs between platforms in the contract. */
export interface ContractOptions {
  /**
   * Whether the harness's asker can be rate-limited. The terminal chat's user runs the bot, so it is an
   * admin there and never limited.
   */
  limitable: boolean;
}

/** The ID the terminal harness asks as; the other platforms' askers are never named this. */
export const CONSOLE_ASKER = 'tester';
/** BLOCK_USERS of the refusal test: the terminal's user and the browser named CONSOLE_ASKER. */
export const BLOCKED_PRINCIPALS = `console:${CONSOLE_ASKER},web:${CONSOLE_ASKER}`;

/** What the users of a conversation see of one question. */
export interface VisibleExchange {
  /** The final text where the answer appears (the channel reply; for the terminal, the Answer/Error line). */
  answer: string;
  /** The reasoning steps as shown (thread, steps message, or terminal lines), all concatenated. */
  steps: string;
}

/** The shared behaviour every adapter (terminal, Discord, Slack) must show. */
export function adapterContract(name: string, createHarness: HarnessFactory, options: ContractOptions): void {
  describe(`adapter contract: ${name}`, () => {
    let h: AdapterHarness;
    beforeEach(async () => {
      h = await createHarness();
    });
    afterEach(async () => {
      await h.close();
    });

    it('shows the answer, and the Thought / Action / Observation steps apart from it', async () => {
      h.model.script(
        {
          content: 'I will use the calculator.',
          toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
        },
        { content: 'The result is **56877**.' },
      );
      const seen = await h.ask('what is 123 * 456 + 789?');
      expect(seen.answer).toContain('56877');
      expect(seen.answer).not.toContain('I will use the calculator');
      expect(seen.steps).toContain('I will use the calculator.');
      expect(seen.steps).toContain('calculator');
      expect(seen.steps).toContain('123 * 456 + 789');
      expect(seen.steps).toMatch(/56,?877/);
    });

    it('ends a model failure with a short message where the answer would be, and keeps working', async () => {
      h.model.script(
        { status: 400, body: { error: { message: 'context length exceeded' } } },
        { content: 'Back again.' },
      );
      const failed = await h.ask('first question');
      expect(failed.answer).toMatch(/model/i);
      expect(failed.answer.length).toBeLessThan(300);
      const next = await h.ask('second question');
      expect(next.answer).toContain('Back again.');
    });

    it('shows an answer the model cut at its length limit with a note saying it is incomplete', async () => {
      h.model.script({ content: 'The first three reasons are: one, two, and', finishReason: 'length' });
      const seen = await h.ask('give me the reasons');
      expect(seen.answer).toContain('one, two, and');
      expect(seen.answer).toContain(WORDING.lengthCut);
    });

    it('remembers the conversation, and only this conversation', async () => {
      h.model.script(
        { content: 'Noted: Atlas.' },
        { content: 'It is Atlas.' },
        { content: 'I do not know.' },
      );
      await h.ask('my project is called Atlas', 'a');
      await h.ask('what is my project called?', 'a');
      const sameChannel = JSON.stringify(h.model.requests[1]!.body.messages);
      expect(sameChannel).toContain('my project is called Atlas');
      expect(sameChannel).toContain('Noted: Atlas.');
      await h.ask('what is my project called?', 'b');
      expect(JSON.stringify(h.model.requests[2]!.body.messages)).not.toContain('Atlas');
    });

    it('forgets on reset and reports memory', async () => {
      h.model.script({ content: 'Noted.' }, { content: 'Fresh start.' });
      await h.ask('remember the number 987654', 'a');
      expect(await h.memory('a')).toMatch(/Turns kept verbatim: 1/);
      expect((await h.reset('a')).length).toBeGreaterThan(0);
      expect(await h.memory('a')).toMatch(/Turns kept verbatim: 0/);
      await h.ask('what number?', 'a');
      expect(JSON.stringify(h.model.requests[1]!.body.messages)).not.toContain('987654');
    });
  });

  describe(`adapter contract: ${name}: who may ask, and what it costs`, () => {
    let g: AdapterHarness | undefined;
    afterEach(async () => {
      await g?.close();
      g = undefined;
    });

    it('refuses an asker the access lists leave out with one short reply; the model never hears of it', async () => {
      // Discord and Slack askers are not on ALLOW_USERS; the terminal's user (an admin) and the web chat's
      // browser are blocked as principals of their own surface.
      g = await createHarness({ ALLOW_USERS: 'U0SOMEONEELSE', BLOCK_USERS: BLOCKED_PRINCIPALS });
      g.model.script({ content: 'This must never be asked for.' });
      const seen = await g.ask('may I ask something?');
      expect(seen.answer).toContain(WORDING.refused);
      expect(seen.answer.length).toBeLessThan(120);
      expect(seen.steps).toBe('');
      expect(g.model.requests).toHaveLength(0);
      expect(await g.memory()).toMatch(/Turns kept verbatim: 0/);
    });

    if (options.limitable) {
      it('over the rate limit, says when the next question will be taken; no model call', async () => {
        g = await createHarness({ RATE_LIMIT_USER: '1/hour' });
        g.model.script({ content: 'First and only.' }, { content: 'Must never be asked for.' });
        expect((await g.ask('first question')).answer).toContain('First and only.');
        const limited = await g.ask('second question');
        expect(limited.answer).toMatch(
          /limit of 1 question per hour; your next question will be taken at (\w{3} \d+ \w{3}, )?\d\d:\d\d/,
        );
        expect(g.model.requests).toHaveLength(1);
      });
    }

    it('shows the asker’s and the channel’s usage with /usage', async () => {
      g = await createHarness();
      g.model.script({
        content: 'Counted.',
        usage: { prompt_tokens: 120, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 90 } },
      });
      await g.ask('count me');
      const report = await g.usage();
      expect(report).toMatch(/You today: 1 question, 150 tokens \(75% of prompt tokens cached\)/);
      expect(report).toMatch(/This channel this month: 1 question, 150 tokens/);
    });

    it('lists the tools in force with /tools, grouped by MCP server, with each server’s state', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'thinkthread-contract-mcp-'));
      const server = await startHttpMcpServer();
      try {
        const mcpJson = writeMcpJson(dir, {
          remote: { url: server.url, tools: ['echo', 'fail'] },
          gone: { command: join(dir, 'no-such-server') },
        });
        g = await createHarness({ MCP_CONFIG: mcpJson, APPROVAL_DEFAULT_MCP: 'never' });
        const report = await g.tools();
        expect(report).toMatch(/Built-in: calculator, current_time/);
        expect(report).toMatch(/MCP server remote \(connected\):\s+remote\\?_\\?_echo\s+remote\\?_\\?_fail/);
        expect(report).toMatch(
          /MCP server gone \((unavailable, retrying|connecting)[^)]*\): no tools in force/,
        );
      } finally {
        await g?.close();
        g = undefined;
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
