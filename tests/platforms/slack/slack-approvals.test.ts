import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import {
  eventCallback,
  type FakeSlackMessage,
  taskCards,
  unescapeSlack,
  viewSubmission,
  visibleText,
} from '../../fakes/slack-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import {
  ADMIN,
  ALICE,
  CHANNEL,
  mention,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: '<!channel> & ```' } }] };
const BOB = 'UBOB';
/** Arguments far past the 2,000 characters the approval message shows, with what could escape a code block. */
const LONG_ARGS = {
  text: `${'a long line of text to echo, '.repeat(100)}<!channel> & \`\`\`\`\`\` <@U1>`,
  options: { prefix: `${'&'.repeat(1500)}\n${'x'.repeat(1500)}` },
};
const LONG_ECHO = { toolCalls: [{ name: 'test__echo', arguments: LONG_ARGS }] };

// biome-ignore lint/suspicious/noExplicitAny: Slack blocks are loose JSON.
type Block = any;

const buttonsOf = (message: FakeSlackMessage): Block[] =>
  (message.blocks ?? []).filter((b: Block) => b.type === 'actions').flatMap((b: Block) => b.elements);
const approveButton = (message: FakeSlackMessage) =>
  buttonsOf(message).find((e: Block) => parseRunActionId(e.action_id)?.action === 'approve');
const denyButton = (message: FakeSlackMessage) =>
  buttonsOf(message).find((e: Block) => parseRunActionId(e.action_id)?.action === 'deny');
const showAllButton = (message: FakeSlackMessage) =>
  buttonsOf(message).find((e: Block) => parseRunActionId(e.action_id)?.action === 'args');
/** What a person reads in a modal's code sections, fences and zero-width spaces taken out. */
const codeShown = (view: Block): string =>
  unescapeSlack(
    view.blocks
      .filter((b: Block) => b.type === 'section' && b.text.text.startsWith('```'))
      .map((b: Block) => b.text.text.slice(3, -3))
      .join(''),
  ).replaceAll('\u200b', '');

describe.each([
  ['edit', 'http'],
  ['native', 'http'],
  ['edit', 'socket'],
] as const)('Slack: tool calls that wait for approval (%s layout, %s mode)', (layout, mode) => {
  let h: SlackHarness | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-slack-approvals-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}, server: Record<string, unknown> = {}) =>
    startSlackHarness(mode, {
      env: {
        SLACK_STREAMING: layout,
        MCP_CONNECT_TIMEOUT_MS: '60000',
        MCP_CONFIG: writeMcpJson(dir, { test: { ...stdioTestServer(), ...server } }),
        ...env,
      },
    });

  /** Asks without waiting for the answer; resolves with the approval message once it is posted. */
  async function askForApproval(harness: SlackHarness): Promise<FakeSlackMessage> {
    await harness.deliver(eventCallback(mention('echo it')));
    let message: FakeSlackMessage | undefined;
    await waitUntil(
      () => {
        message = harness.slack.messages.find((m) => approveButton(m) !== undefined);
        return message !== undefined;
      },
      { what: 'the approval message' },
    );
    return message!;
  }

  const press = (harness: SlackHarness, message: FakeSlackMessage, button: Block, user = ALICE) =>
    harness.press(message, { type: 'button', action_id: button.action_id, value: button.value }, user);
  const privateReplies = (harness: SlackHarness) => harness.slack.responses.map((r) => r.body.text);
  /** What people see of the answer: the top-level reply (edit) or the streamed reply (native). */
  const answerText = (harness: SlackHarness) =>
    harness.slack.messages
      .filter(
        (m) =>
          approveButton(m) === undefined &&
          !(m.blocks ?? []).some(
            (b: Block) => b.type === 'section' && /Approval needed/.test(b.text?.text ?? ''),
          ),
      )
      .map(visibleText)
      .join('\n');

  it('posts the call with its exact arguments (escaped) and Approve / Deny in the thread; the asker approves once', async () => {
    h = await start();
    h.model.script(ECHO, { content: 'Echoed.' });
    const approval = await askForApproval(h);
    expect(approval.threadTs).toBeDefined();
    const text = visibleText(approval);
    expect(text).toContain('*Approval needed:* `test__echo`');
    // What people see is the model's text as text; on the wire it is escaped, so <!channel> notifies no one.
    expect(text).toContain('```{\n  "text": "<!channel> & `\u200b`\u200b`"\n}```');
    expect(JSON.stringify(approval.blocks)).toContain('&lt;!channel&gt; &amp;');
    expect(text).toMatch(
      /The asker or an admin decides; unanswered, it is denied <!date\^\d+\^\{time\}\|in time>\./,
    );
    // Nothing was cut, so there is nothing more to show.
    expect(buttonsOf(approval).map((b: Block) => b.text.text)).toEqual(['Approve', 'Deny']);
    if (layout === 'edit') {
      expect(visibleText(topLevel(h)[0]!)).toBe(
        '_Waiting for approval of test\\_\\_echo…_'.replace(/\\/g, ''),
      );
    }
    await press(h, approval, approveButton(approval));
    await h.settle();
    expect(answerText(h)).toContain('Echoed.');
    if (layout === 'native') {
      // While it waited, its task card was pending (task-chunks-approval.test.ts; paced appends send a card's
      // latest state only); now the action is complete.
      expect(taskCards(h.slack.messages.find((m) => m.stream)!)).toMatch(
        /Action: test__echo: .* → echo: .* \[complete\]/,
      );
    }
    expect(buttonsOf(approval)).toEqual([]);
    expect(visibleText(approval)).toMatch(/\*test__echo approved by Alice\.\*$/);
    await press(
      h,
      approval,
      approveButton({
        ...approval,
        blocks: [{ type: 'actions', elements: [approveButton(await firstPosted(h))] }],
      }),
    );
    await h.slack.waitFor(() => privateReplies(h!).length === 1);
    expect(privateReplies(h)).toEqual(['This request has expired.']);
  });

  it('Deny opens a form at once; its reason reaches the model and the tool does not run', async () => {
    h = await start();
    h.model.script(ECHO, { content: 'Did not echo.' });
    const approval = await askForApproval(h);
    await press(h, approval, denyButton(approval));
    await h.slack.waitFor(() => h!.slack.views.length === 1);
    const view = h.slack.views[0]!;
    expect(view).toMatchObject({ callback_id: 'tt_approval_deny', title: { text: 'Deny this tool call' } });
    await h.interact(viewSubmission(view, { reason: 'wrong channel' }, { user: ALICE }));
    await h.settle();
    expect(answerText(h)).toContain('Did not echo.');
    expect(visibleText(approval)).toMatch(/\*test__echo denied by Alice: wrong channel\.\*$/);
    expect(JSON.stringify(h.model.requests[1]!.body.messages)).toContain('Their reason: wrong channel');
  });

  it('tells a stranger privately; a workspace admin may approve', async () => {
    h = await start();
    h.model.script(ECHO, { content: 'Echoed.' });
    const approval = await askForApproval(h);
    await press(h, approval, approveButton(approval), BOB);
    await h.slack.waitFor(() => privateReplies(h!).length === 1);
    expect(privateReplies(h)).toEqual(['Only the asker or an admin can approve this.']);
    // A stranger's Deny opens the form (the trigger cannot wait for a lookup); its submission is refused privately.
    await press(h, approval, denyButton(approval), BOB);
    await h.slack.waitFor(() => h!.slack.views.length === 1);
    await h.interact(viewSubmission(h.slack.views[0]!, { reason: 'mine now' }, { user: BOB }));
    await h.slack.waitFor(() => h!.slack.ephemerals.some((e) => e.user === BOB));
    expect(h.slack.ephemerals.filter((e) => e.user === BOB).map((e) => e.text)).toEqual([
      'Only the asker or an admin can approve this.',
    ]);
    await press(h, approval, approveButton(approval), ADMIN);
    await h.settle();
    expect(visibleText(approval)).toMatch(/\*test__echo approved by Ada\.\*$/);
  });

  it('arguments too long for the message: "Show all arguments" opens a modal with the whole JSON for the asker', async () => {
    h = await start();
    h.model.script(LONG_ECHO, { content: 'Echoed.' });
    const approval = await askForApproval(h);
    expect(buttonsOf(approval).map((b: Block) => b.text.text)).toEqual([
      'Approve',
      'Deny',
      'Show all arguments',
    ]);
    expect(showAllButton(approval).style).toBeUndefined();
    expect(visibleText(approval)).toMatch(/The arguments are cut here \([\d,]+ characters in all\)\./);
    expect(visibleText(approval)).not.toContain('<@U1>');

    await press(h, approval, showAllButton(approval));
    await h.slack.waitFor(() => h!.slack.views.length === 1);
    const view = h.slack.views[0]!;
    expect(view).toMatchObject({ callback_id: 'tt_approval_args', title: { text: 'Tool call arguments' } });
    expect(visibleText(view)).toMatch(/^\*Arguments of\* `test__echo`\n/);
    expect(codeShown(view)).toBe(JSON.stringify(LONG_ARGS, null, 2));
    // The JSON cannot close its code block: no two backticks side by side, none at a block's edge.
    for (const block of view.blocks.slice(1)) expect(block.text.text.slice(3, -3)).not.toMatch(/``|^`|`$/);
    // On the wire it is escaped, so <!channel> notifies no one.
    expect(JSON.stringify(view.blocks)).toContain('&lt;!channel&gt; &amp;');
    expect(privateReplies(h)).toEqual([]);

    // It decided nothing: the asker can still approve.
    await press(h, approval, approveButton(approval));
    await h.settle();
    expect(answerText(h)).toContain('Echoed.');
  });

  it('"Show all arguments": a stranger is told privately, without a modal; after the decision it has expired', async () => {
    h = await start();
    h.model.script(LONG_ECHO, { content: 'Echoed.' });
    const approval = await askForApproval(h);
    const showAll = showAllButton(approval);
    await press(h, approval, showAll, BOB);
    await h.slack.waitFor(() => privateReplies(h!).length === 1);
    expect(privateReplies(h)).toEqual(['Only the asker or an admin can approve this.']);

    await press(h, approval, approveButton(approval));
    await h.settle();
    expect(buttonsOf(approval)).toEqual([]);
    // A press that was on its way when the buttons went.
    await press(h, { ...approval, blocks: [{ type: 'actions', elements: [showAll] }] }, showAll);
    await h.slack.waitFor(() => privateReplies(h!).length === 2);
    expect(privateReplies(h)[1]).toBe('This request has expired.');
    expect(h.slack.views).toEqual([]);
  });

  it('no press in time: denied and the model told; the message says so', async () => {
    h = await start({ APPROVAL_TIMEOUT_MS: '60' });
    h.model.script(ECHO, { content: 'Nobody approved.' });
    const approval = await askForApproval(h);
    await h.settle();
    expect(answerText(h)).toContain('Nobody approved.');
    expect(buttonsOf(approval)).toEqual([]);
    expect(visibleText(approval)).toMatch(/\*test__echo was not approved in time, so it did not run\.\*$/);
  });

  it('once-per-channel: after one approval the tool runs without asking here', async () => {
    h = await start({}, { approval: 'once-per-channel' });
    h.model.script(ECHO, { content: 'one' }, ECHO, { content: 'two' });
    const approval = await askForApproval(h);
    await press(h, approval, approveButton(approval));
    await h.settle();
    await h.deliver(eventCallback(mention('echo again')));
    await h.settle();
    expect(answerText(h)).toContain('two');
    expect(h.slack.messages.filter((m) => /Approval needed/.test(visibleText(m)))).toHaveLength(1);
  });

  if (layout === 'edit') {
    it('Stop while waiting: the answer stops and the approval message says it ended', async () => {
      h = await start();
      h.model.script(ECHO);
      const approval = await askForApproval(h);
      const answer = topLevel(h)[0]!;
      const stop = buttonsOf(answer).find((e: Block) => parseRunActionId(e.action_id)?.action === 'stop');
      await press(h, answer, stop);
      await h.settle();
      expect(visibleText(answer)).toBe(WORDING.stopped);
      expect(visibleText(approval)).toMatch(/\*The answer ended before anyone decided\.\*$/);
      expect(CHANNEL).toBe(answer.channel);
    });
  }
});

/** The first approval message the bot posted, as it was posted (with its buttons). */
async function firstPosted(h: SlackHarness): Promise<FakeSlackMessage> {
  const call = h.slack
    .callsTo('chat.postMessage')
    .find((c) => JSON.stringify(c.args).includes('tt:approve:'))!;
  const blocks = typeof call.args.blocks === 'string' ? JSON.parse(call.args.blocks) : call.args.blocks;
  return { ...(h.slack.messages[0] as FakeSlackMessage), blocks };
}
