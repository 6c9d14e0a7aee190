import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPrompt, loadPrompts, renderPrompt } from '../../src/core/prompts.js';

describe('prompts', () => {
  it('fills placeholders and keeps escaped braces literal', () => {
    expect(renderPrompt('Today is {date}. Input: {{"a": 1}}', { date: 'Monday' })).toBe(
      'Today is Monday. Input: {"a": 1}',
    );
  });

  it('fails loudly on an unknown placeholder, naming it and the known ones', () => {
    expect(() => renderPrompt('Hello {nmae}', { name: 'x' }, 'greeting')).toThrow(
      /Unknown placeholder \{nmae\} in greeting; known: \{name\}/,
    );
  });

  it('loads every shipped prompt the agent and memory need, and they render', () => {
    const prompts = loadPrompts('prompts');
    const values = { date: 'd', tools: 't', tool_names: 'n', reason: 'r' };
    for (const name of ['system-tools', 'system-react', 'format-reminder-react', 'format-reminder-tools']) {
      expect(renderPrompt(getPrompt(prompts, name), values, name).length).toBeGreaterThan(20);
    }
    expect(() => getPrompt(prompts, 'nope')).toThrow(/prompts\/nope\.md/);
  });

  it('reads changed prompt files without any code change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompts-'));
    writeFileSync(join(dir, 'system-tools.md'), 'Custom {date}');
    expect(renderPrompt(getPrompt(loadPrompts(dir), 'system-tools'), { date: 'today' })).toBe('Custom today');
  });

  it('names the folder when it is missing', () => {
    expect(() => loadPrompts('/nonexistent/prompts')).toThrow(/\/nonexistent\/prompts.*PROMPTS_DIR/);
  });
});
