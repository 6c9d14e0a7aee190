import { describe, expect, it } from 'vitest';
import { argumentsModal, codePiece, codeText } from '../../../src/platforms/slack/arguments-modal.js';
import { unescapeSlack, VIEW_LIMITS } from '../../fakes/slack-server.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack blocks are loose JSON.
type Block = any;

const sections = (input: unknown) => argumentsModal('test__echo', input).blocks as Block[];
const code = (blocks: Block[]) =>
  blocks.filter((b) => b.type === 'section' && b.text.text.startsWith('```')).map((b) => b.text.text);
const shown = (blocks: Block[]) =>
  unescapeSlack(
    code(blocks)
      .map((t: string) => t.slice(3, -3))
      .join(''),
  ).replaceAll('\u200b', '');

describe('Slack: the modal with a call’s whole arguments', () => {
  it('spreads them over sections within Slack’s limits, whatever escaping costs', () => {
    const input = { amps: '&'.repeat(9_000), ticks: '`'.repeat(5_000), emoji: '😀'.repeat(3_000) };
    const blocks = sections(input);
    expect(blocks.length).toBeLessThanOrEqual(VIEW_LIMITS.blocks);
    for (const text of code(blocks)) {
      expect(text.length).toBeLessThanOrEqual(VIEW_LIMITS.sectionText);
      expect(text.slice(3, -3)).not.toMatch(/``|^`|`$|&[a-z]{0,3}$|^[a-z]{0,3};/);
      expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(shown(blocks)).toBe(JSON.stringify(input, null, 2));
    expect(blocks.at(-1).type).toBe('section');
  });

  it('says how much is left out when even 100 blocks cannot hold them', () => {
    const input = { text: 'x'.repeat(400_000) };
    const total = JSON.stringify(input, null, 2).length;
    const blocks = sections(input);
    expect(blocks).toHaveLength(VIEW_LIMITS.blocks);
    const note = blocks.at(-1).elements[0].text as string;
    const left = Number(/^The last ([\d,]+) characters/.exec(note)![1]!.replaceAll(',', ''));
    expect(note).toContain(`(${total.toLocaleString('en')} in all)`);
    expect(shown(blocks).length + left).toBe(total);
    expect(JSON.stringify(input, null, 2).startsWith(shown(blocks))).toBe(true);
  });

  it('never splits a character in two', () => {
    for (const pad of ['', 'a']) {
      const text = `${pad}${'😀'.repeat(20)}`;
      const piece = codePiece(text, 0, 9);
      expect(piece.code).not.toMatch(/[\ud800-\udbff]$/);
      expect(codePiece(text, piece.end, 9).code).not.toMatch(/^[\udc00-\udfff]/);
    }
  });

  it('keeps code from closing its block or pinging anyone', () => {
    expect(codeText('``` <!channel> @here')).toBe('\u200b`\u200b`\u200b` &lt;!channel&gt; @\u200bhere');
    const piece = codePiece('a\nb'.repeat(10), 0, 8);
    expect(piece.code.length).toBeLessThanOrEqual(8);
    expect(piece.code.endsWith('\n')).toBe(true);
  });
});
