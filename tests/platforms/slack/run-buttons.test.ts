import { afterEach, describe, expect, it } from 'vitest';
import { parseRunActionId, runActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { eventCallback, type FakeSlackMessage, visibleText } from '../../fakes/slack-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  mention,
  replies,
  type SlackHarness,
  type SlackMode,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

const WRITTEN = 'The first part of a long answer. '.repeat(6).trim();
/** A reply that streams WRITTEN (past the 160 characters held back) and then waits until it is stopped. */
const SLOW = { content: `${WRITTEN} and the rest, never sent.`, pauseAt: { chars: WRITTEN.length } };
const BOB = 'UBOB';

// biome-ignore lint/suspicious/noExplicitAny: Slack blocks are loose JSON.
type Block = any;

const blocksOf = (message: FakeSlackMessage): Block[] => message.blocks ?? [];
const stopButton = (message: FakeSlackMessage) =>
  blocksOf(message)
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements)
    .find((e: Block) => parseRunActionId(e.action_id)?.action === 'stop');
const feedbackButtons = (message: FakeSlackMessage) =>
  blocksOf(message)
    .filter((b) => b.type === 'context_actions')
    .flatMap((b) => b.elements)
    .find((e: Block) => e.type === 'feedback_buttons');

/** The edit layout (the answer message carries the buttons); slack-native.test.ts presses them in native mode. */
const EDIT = { env: { SLACK_STREAMING: 'edit' } };

describe.each<SlackMode>(['http', 'socket'])(
  'Slack Stop and feedback buttons (%s mode, edit layout)',
  (mode) => {
    let h: SlackHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    /** Asks without waiting for the answer; resolves with the answer message once it shows the streamed text. */
    async function askSlowly(harness: SlackHarness): Promise<FakeSlackMessage> {
      await harness.deliver(eventCallback(mention('tell me a long story')));
      await waitUntil(() => visibleText(topLevel(harness)[0] ?? { text: '' }).startsWith(WRITTEN), {
        what: 'the answer to stream in',
      });
      return topLevel(harness)[0]!;
    }

    const pressStop = (harness: SlackHarness, message: FakeSlackMessage, user = ALICE) => {
      const button = stopButton(message);
      return harness.press(
        message,
        { type: 'button', action_id: button.action_id, value: button.value },
        user,
      );
    };
    const privateReplies = (harness: SlackHarness) => harness.slack.responses.map((r) => r.body);

    it('stops the answer for its asker: what was written stays, the thread says who, nothing is remembered', async () => {
      h = await startSlackHarness(mode, EDIT);
      h.model.script(SLOW, { content: 'We have not talked yet.' });
      const answer = await askSlowly(h);
      const runId = parseRunActionId(stopButton(answer).action_id)!.runId;
      await pressStop(h, answer);
      await h.settle();
      expect(visibleText(answer)).toBe(`${WRITTEN}\n\n${WORDING.stopped}`);
      expect(stopButton(answer)).toBeUndefined();
      expect(feedbackButtons(answer)).toMatchObject({
        positive_button: { value: runActionId('feedback_up', runId) },
        negative_button: { value: runActionId('feedback_down', runId) },
      });
      const steps = replies(h, CHANNEL, answer.ts).map(visibleText);
      expect(steps.at(-1)).toBe('_Stopped by Alice._');
      expect(privateReplies(h)).toEqual([]);
      // The next question's model call carries no trace of the stopped run.
      await ask(h, mention('what did you tell me?'));
      const sent = JSON.stringify(h.model.requests[1]?.body.messages);
      expect(sent).toContain('what did you tell me?');
      expect(sent).not.toContain('tell me a long story');
      expect(sent).not.toContain('first part of a long answer');
    });

    it('tells anyone else privately that only the asker can stop it, and lets a workspace admin stop it', async () => {
      h = await startSlackHarness(mode, EDIT);
      h.model.script(SLOW);
      const answer = await askSlowly(h);
      await pressStop(h, answer, BOB);
      await h.slack.waitFor(() => h!.slack.responses.length === 1);
      expect(privateReplies(h)).toEqual([
        expect.objectContaining({ response_type: 'ephemeral', text: WORDING.onlyAskerCanStop }),
      ]);
      expect(stopButton(answer)).toBeDefined(); // still going
      await pressStop(h, answer, ADMIN);
      await h.settle();
      expect(visibleText(answer).endsWith(WORDING.stopped)).toBe(true);
      expect(replies(h, CHANNEL, answer.ts).map(visibleText).at(-1)).toBe('_Stopped by Ada._');
    });

    it('acts once on a double press, and says the answer is finished after the end and after a restart', async () => {
      h = await startSlackHarness(mode, EDIT);
      h.model.script(SLOW, { content: 'Short and done.' });
      const answer = await askSlowly(h);
      const stale = structuredClone(answer);
      await Promise.all([pressStop(h, answer), pressStop(h, answer)]);
      await h.settle();
      expect(visibleText(answer).match(/\(stopped\)/g)).toHaveLength(1);
      expect(
        replies(h, CHANNEL, answer.ts).filter((m) => visibleText(m).includes('Stopped by')),
      ).toHaveLength(1);
      expect(privateReplies(h)).toEqual([expect.objectContaining({ text: WORDING.answerFinished })]);

      // The Stop button of an answer that has ended (a stale client still shows it).
      await pressStop(h, stale);
      await h.settle();
      // A Stop from before a restart: the run is unknown.
      await h.press(stale, { type: 'button', action_id: runActionId('stop', 'b4restart') });
      await h.settle();
      expect(privateReplies(h).map((r) => r.text)).toEqual([
        WORDING.answerFinished,
        WORDING.answerFinished,
        WORDING.answerFinished,
      ]);
      await ask(h, mention('a short one'));
      expect(visibleText(topLevel(h)[1]!)).toBe('Short and done.');
    });

    it('records 👍 / 👎 once per person and answer, and counts them in /usage for admins', async () => {
      h = await startSlackHarness(mode, EDIT);
      h.model.script({ content: 'Paris.' });
      await ask(h, mention('capital of France?'));
      const answer = topLevel(h)[0]!;
      const feedback = feedbackButtons(answer);
      const vote = async (user: string, which: 'positive_button' | 'negative_button') => {
        await h!.press(
          answer,
          { type: 'feedback_buttons', action_id: feedback.action_id, value: feedback[which].value },
          user,
        );
        await h!.settle();
      };
      await vote(ALICE, 'positive_button');
      await vote(ALICE, 'positive_button');
      await vote(BOB, 'negative_button');
      expect(privateReplies(h).map((r) => r.text)).toEqual(Array(3).fill(WORDING.feedbackThanks));
      const usage = async (user: string) => {
        const before = h!.slack.responses.length;
        await h!.command('/usage', '', { user });
        await h!.settle();
        return String(h!.slack.responses.at(before)?.body.text ?? '');
      };
      expect(await usage(ADMIN)).toContain('Feedback this month: 1 👍, 1 👎');
      await vote(ALICE, 'negative_button');
      expect(await usage(ADMIN)).toContain('Feedback this month: 0 👍, 2 👎');
      expect(await usage(ALICE)).not.toContain('Feedback');
    });

    it('asks what was wrong after a 👎, and keeps the comment with that vote', async () => {
      h = await startSlackHarness(mode, EDIT);
      h.model.script({ content: 'Lyon.' });
      await ask(h, mention('capital of France?'));
      const answer = topLevel(h)[0]!;
      const feedback = feedbackButtons(answer);
      await h.press(answer, {
        type: 'feedback_buttons',
        action_id: feedback.action_id,
        value: feedback.negative_button.value,
      });
      await h.settle();
      const [opened] = h.slack.callsTo('views.open');
      expect(opened?.args.trigger_id).toMatch(/^trigger\./);
      const view = typeof opened?.args.view === 'string' ? JSON.parse(opened.args.view) : opened?.args.view;
      expect(view).toMatchObject({ type: 'modal', title: { text: 'Feedback' } });
      const submitted = await h.interact({
        type: 'view_submission',
        team: { id: h.slack.team, domain: 'fake' },
        user: { id: ALICE, username: 'alice', name: 'alice', team_id: h.slack.team },
        api_app_id: 'A0001',
        token: 'legacy-verification-token',
        trigger_id: 'trigger.2',
        view: {
          ...view,
          id: 'V0001',
          team_id: h.slack.team,
          state: {
            values: { comment: { comment: { type: 'plain_text_input', value: 'The capital is Paris.' } } },
          },
          hash: 'h',
          app_id: 'A0001',
          bot_id: 'BBOT',
        },
        response_urls: [],
      });
      expect(submitted.status).toBe(200);
      await h.settle();
      await h.command('/usage', '', { user: ADMIN });
      await h.settle();
      expect(String(h.slack.responses.at(-1)?.body.text)).toContain(
        'Feedback this month: 0 👍, 1 👎 (1 with a comment)',
      );
    });
  },
);
