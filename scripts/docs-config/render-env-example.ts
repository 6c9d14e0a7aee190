import type { GroupDoc, SettingDoc } from './settings-reference.js';

const WIDTH = 110;

const HEADER = [
  'thinkthread configuration. Copy to .env and fill in what you need. Copying it changes nothing by itself: a ' +
    'commented line shows the default (uncomment it to change it), and an empty value means unset.',
  'Written by `npm run docs:config` from src/config/ (docs/configuration.md is the same reference).',
];

/** `.env.example`: every setting, grouped, each with what it does and its default (commented out). */
export function renderEnvExample(groups: readonly GroupDoc[]): string {
  const blocks = [HEADER.flatMap(comment).join('\n')];
  for (const group of groups) {
    const lines = [`# ── ${group.title} ${'─'.repeat(Math.max(3, WIDTH - group.title.length - 6))}`];
    if (group.intro) lines.push(...comment(group.intro), '');
    for (const setting of group.settings) lines.push(...settingLines(setting));
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}

/** A setting's description as comments, then its line: commented with the default, else empty. */
function settingLines(setting: SettingDoc): string[] {
  const about = setting.default === undefined && setting.unset ? ` Unset: ${setting.unset}.` : '';
  const lines = comment(`${setting.description}${about}`);
  if (setting.default !== undefined) lines.push(`# ${setting.key}=${setting.default}`);
  else lines.push(setting.commented ? `# ${setting.key}=` : `${setting.key}=`);
  return lines;
}

/** Markdown as plain comment lines: no code marks, links spelled out, wrapped at WIDTH. */
function comment(markdown: string): string[] {
  const plain = markdown.replaceAll('`', '').replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)');
  const lines: string[][] = [[]];
  let length = 2;
  for (const word of plain.split(/\s+/).filter(Boolean)) {
    const line = lines.at(-1)!;
    if (line.length > 0 && length + 1 + word.length > WIDTH) {
      // A line must not start with NAME=, which would read as a setting's value.
      const carried = /^[A-Z][A-Z0-9_]*=/.test(word) && line.length > 1 ? [line.pop()!] : [];
      lines.push([...carried, word]);
      length = 2 + [...carried, word].join(' ').length;
    } else {
      line.push(word);
      length += (line.length > 1 ? 1 : 0) + word.length;
    }
  }
  return lines.map((words) => `# ${words.join(' ')}`);
}
