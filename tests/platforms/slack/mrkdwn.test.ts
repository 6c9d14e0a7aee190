import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, plainToMrkdwn } from '../../../src/platforms/slack/mrkdwn.js';

describe('markdownToMrkdwn', () => {
  it.each([
    ['**bold** and __bold__', '*bold* and *bold*'],
    ['*italic* and _italic_', '_italic_ and _italic_'],
    ['***both***', '*_both_*'],
    ['~~struck~~', '~struck~'],
    ['# Title with **bold**', '*Title with bold*'],
    ['### Third level ###', '*Third level*'],
    ['[the docs](https://example.com/a?b=1&c=2)', '<https://example.com/a?b=1&amp;c=2|the docs>'],
    ['![a chart](https://example.com/c.png)', '<https://example.com/c.png|a chart>'],
    [
      'see https://en.wikipedia.org/wiki/Mercury_(planet).',
      'see <https://en.wikipedia.org/wiki/Mercury_(planet)>.',
    ],
    ['**https://example.com**', '*<https://example.com>*'],
    ['mail <mailto:a@example.com>', 'mail <mailto:a@example.com>'],
    ['`a < b` and `<!here>`', '`a &lt; b` and `&lt;!here&gt;`'],
    ['123 * 456 + 789 = 2*3*4', '123 * 456 + 789 = 2*3*4'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['a \\*literal\\* star', 'a *literal* star'],
    ['> quoted **bold**', '> quoted *bold*'],
    ['---', '──────────'],
    ['- one\n  - two\n    - three', '• one\n    ◦ two\n        • three'],
    ['1. first\n2) second', '1. first\n2. second'],
    ['- [ ] todo\n- [x] done', '• ☐ todo\n• ☑ done'],
  ])('%j → %j', (markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });

  it('keeps code blocks verbatim apart from escaping, drops the language, and closes an unclosed one', () => {
    expect(markdownToMrkdwn('```ts\nif (a < b) { x = "**no**"; }\n```')).toBe(
      '```\nif (a &lt; b) { x = "**no**"; }\n```',
    );
    expect(markdownToMrkdwn('~~~\n```inner```\n~~~')).toBe('```\n`\u200B``inner`\u200B``\n```');
    expect(markdownToMrkdwn('```\nstill streaming')).toBe('```\nstill streaming\n```');
  });

  it('never produces Slack mention markup from model text', () => {
    const out = markdownToMrkdwn(
      'Hey <!channel> <!here|here> <!everyone> <@U123> <@U123|bob> <!subteam^S1|@team> @here @channel @everyone',
    );
    expect(out).not.toMatch(/<[!@#]/);
    expect(out).not.toMatch(/@(here|channel|everyone)/);
  });

  it('leaves links it cannot make safe as plain text', () => {
    expect(markdownToMrkdwn('[x](javascript:alert(1))')).toBe('[x](javascript:alert(1))');
    expect(markdownToMrkdwn('[x](https://a.b/c|d)')).toBe('[x](https://a.b/c|d)');
  });

  it.each([
    [
      'the web chat’s nested-link attack: one link, to the whole address, which Slack shows',
      'https://evil.example/[x](https://b.example/onmouseover=alert(1)//)',
      '<https://evil.example/[x](https://b.example/onmouseover=alert(1)//)>',
    ],
    ['a special as a link’s label', '[<!here>](https://a.example/)', '<https://a.example/|&lt;!here&gt;>'],
    [
      'a mention after a "|" in a label',
      '[x|<@U123>](https://a.example/)',
      '<https://a.example/|x¦&lt;@U123&gt;>',
    ],
    ['a special right after a URL', 'https://a.example/<!channel>', '<https://a.example/>&lt;!channel&gt;'],
    ['Slack’s own link syntax', '<https://a.example|click> here', '&lt;https://a.example|click&gt; here'],
    [
      'a link inside Slack’s link syntax',
      '<https://a.example/|<!here>>',
      '&lt;https://a.example/|&lt;!here&gt;&gt;',
    ],
    ['a link to another scheme', '[x](slack://channel?id=C1)', '[x](slack://channel?id=C1)'],
    ['a link to no address', '[x](https://)', '[x](https://)'],
    ['a bare scheme', 'see https://).', 'see https://).'],
  ])('forges no Slack markup from %s', (_name, markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });
});

describe('markdownToMrkdwn on long hostile lines', () => {
  it.each([
    ['bold openers that never close', '**a '.repeat(20_000), '**a '.repeat(20_000)],
    ['underscore openers that never close', '__a '.repeat(20_000), '__a '.repeat(20_000)],
    ['strike openers that never close', '~~a '.repeat(20_000), '~~a '.repeat(20_000)],
    ['bold pairs', `${'**bold** '.repeat(9_000)}**open`, `${'*bold* '.repeat(9_000)}**open`],
    ['link openers that never close', '!['.repeat(40_000), '!['.repeat(40_000)],
    [
      'a link after many openers',
      `${'['.repeat(40_000)}[x](https://a.b)`,
      `${'['.repeat(40_000)}<https://a.b|x>`,
    ],
    [
      'a URL followed by closing parentheses',
      `https://a.b/${')'.repeat(80_000)}`,
      `<https://a.b/>${')'.repeat(80_000)}`,
    ],
    ['deeply nested quotes', `${'>'.repeat(40_000)} deep`, `${'> '.repeat(40_000)}deep`],
  ])('converts %s correctly', (_name, markdown, mrkdwn) => {
    expect(markdownToMrkdwn(markdown)).toBe(mrkdwn);
  });
});

describe('plainToMrkdwn', () => {
  it('escapes markup and breaks broadcasts in tool output', () => {
    expect(plainToMrkdwn('a < b & <!here> @Channel')).toBe('a &lt; b &amp; &lt;!here&gt; @\u200BChannel');
  });
});
