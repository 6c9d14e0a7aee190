import { describe, expect, it } from 'vitest';
import { formatToolResult } from '../../src/mcp/format-result.js';
import { mcpToolName } from '../../src/mcp/mcp-tool.js';
import { formatToolsReport } from '../../src/platforms/shared/format-tools.js';

describe('MCP results as Observation text', () => {
  it('describes audio and embedded resources, showing a text resource’s text', () => {
    const text = formatToolResult({
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'mem://notes', mimeType: 'text/plain', text: 'héllo' } },
        { type: 'resource', resource: { uri: 'mem://blob', blob: 'AAAAAAAA' } },
      ],
    });
    expect(text).toBe(
      '[audio: audio/wav, 3 bytes]\n[resource: <mem://notes> (text/plain, 6 bytes)]\nhéllo\n[resource: <mem://blob> (unknown type, 6 bytes)]',
    );
  });

  it('shows structured content when there is nothing else, and says when there is no output', () => {
    expect(formatToolResult({ content: [], structuredContent: { temperature: 21 } })).toBe(
      '{"temperature":21}',
    );
    expect(formatToolResult({ content: [] })).toBe('(no output)');
  });
});

describe('MCP tool names', () => {
  it('are <server>__<tool> in the characters model APIs accept, at most 64 long', () => {
    expect(mcpToolName('github', 'search_issues')).toBe('github__search_issues');
    expect(mcpToolName('fs', 'read.file/v2')).toBe('fs__read_file_v2');
    expect(mcpToolName('s', 'x'.repeat(80))).toHaveLength(64);
  });
});

describe('the /tools report', () => {
  it('groups the tools by source, with each server’s state and problem', () => {
    const report = formatToolsReport({
      groups: [
        { name: 'built-in', kind: 'built-in', state: 'ready', tools: ['calculator', 'current_time'] },
        { name: 'github', kind: 'mcp', state: 'ready', tools: ['github__search_issues'] },
        {
          name: 'docs',
          kind: 'mcp',
          state: 'failed',
          tools: [],
          problem: 'connect ECONNREFUSED 127.0.0.1:9',
        },
      ],
    });
    expect(report).toBe(
      [
        'Built-in: calculator, current_time',
        'MCP server github (connected):',
        '  github__search_issues',
        'MCP server docs (unavailable, retrying: connect ECONNREFUSED 127.0.0.1:9): no tools in force',
      ].join('\n'),
    );
  });
});
