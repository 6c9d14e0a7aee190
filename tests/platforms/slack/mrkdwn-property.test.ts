import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn } from '../../../src/platforms/slack/mrkdwn.js';
import { safeMarkdown } from '../../../src/platforms/slack/native-markdown.js';

/** A link Slack renders from mrkdwn: `<url>` or `<url|label>`, to a web or mail address, `&` escaped. */
const SAFE_LINK = /<(?:https?:\/\/|mailto:)(?:[^\s<>|&]|&(?:amp|lt|gt);)+(?:\|[^<>|]*)?>/gi;
/** Text from which the converter may make a link: a markdown link, an autolink or a bare URL need one of these. */
const MAY_LINK = /https?:\/\/|mailto:/i;
const BROADCAST = /@(channel|here|everyone|group)\b/i;

const FRAGMENTS = [
  '[',
  ']',
  '](',
  '![',
  '(',
  ')',
  '<',
  '>',
  '|',
  '!',
  '@',
  '#',
  '^',
  'http://',
  'https://',
  'HTTPS://',
  'mailto:',
  'javascript:',
  'slack://',
  'https://a.example/',
  '<https://',
  '<mailto:',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S1|@team>',
  '<!date^1|x>',
  '<@U123>',
  '<@U123|bob>',
  '<#C123>',
  '@here',
  '@channel',
  '@everyone',
  '&',
  '&lt;',
  '&gt;',
  '&amp;',
  '"',
  "'",
  '`',
  '```',
  '*',
  '**',
  '_',
  '~~',
  '\\',
  '\n',
  '\u2028',
  '\t',
  ' ',
  '> ',
  '- ',
  '# ',
  '\u0001',
  '\u0002',
  '\u00020\u0003',
];

/** Adversarial model text: pieces of Slack's markup and of markdown links, mixed with random text. */
const hostileText = fc
  .array(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string() }),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** The mrkdwn without its code blocks and code spans, which Slack shows verbatim (deliberately so). */
function outsideCode(mrkdwn: string): string {
  let inBlock = false;
  const kept: string[] = [];
  for (const line of mrkdwn.split('\n')) {
    if (line === '```') inBlock = !inBlock;
    else if (!inBlock) kept.push(line.replace(/`[^`]*`/g, ''));
  }
  return kept.join('\n');
}

/** Checks the mrkdwn made of `text`: the only `<…>` in it are links to web or mail addresses it asked for. */
function checkMrkdwn(text: string): void {
  const out = markdownToMrkdwn(text);
  const where = `${JSON.stringify(text)} → ${JSON.stringify(out)}`;
  expect(out, where).not.toMatch(/<[!@#]/);
  const links = out.match(SAFE_LINK) ?? [];
  // What Slack shows as text: everything but the links' addresses (an address may well hold "@here").
  const shown = out.replace(SAFE_LINK, (link) => link.replace(/^<[^|>]*\|?/, '').replace(/>$/, ''));
  expect(outsideCode(shown), where).not.toMatch(BROADCAST);
  // Outside those links, no "<" is left for Slack to read as the start of one.
  expect(out.replace(SAFE_LINK, ''), where).not.toContain('<');
  if (!MAY_LINK.test(text)) expect(links, where).toEqual([]);
}

describe('markdownToMrkdwn on random and hostile model text (issue 26)', () => {
  it('makes no mention, broadcast or special, and links only to web and mail addresses the text named', () => {
    fc.assert(fc.property(hostileText, checkMrkdwn), { numRuns: 2_000 });
  });

  it('does the same for any text at all', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkMrkdwn), { numRuns: 1_000 });
  });
});

describe('safeMarkdown (native streaming) on random and hostile model text', () => {
  it('leaves no mention, special or broadcast Slack would act on', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const out = safeMarkdown(text);
        expect(out).not.toMatch(/<[!@#]/);
        expect(out).not.toMatch(BROADCAST);
      }),
      { numRuns: 2_000 },
    );
  });
});
