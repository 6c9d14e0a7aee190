// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the syntax of mcp.json under test
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpConfigError, mcpConfigFile, parseMcpConfig } from '../../src/mcp/config/mcp-config.js';

function problemsOf(text: string, env: Record<string, string> = {}): readonly string[] {
  try {
    parseMcpConfig(text, 'mcp.json', env);
  } catch (err) {
    if (err instanceof McpConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('mcp.json', () => {
  it('reads stdio and HTTP servers in the Claude Desktop / Cursor format, expanding ${VAR}', () => {
    const text = JSON.stringify({
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github', '--home=${HOME_DIR}'],
          env: { GITHUB_TOKEN: '${GH_TOKEN}', MODE: '${MODE:-read-only}' },
        },
        docs: {
          url: 'https://docs.example.com/mcp?key=${DOCS_KEY}',
          headers: { 'X-Api-Key': '${DOCS_HEADER}' },
        },
        legacy: { type: 'sse', url: 'http://localhost:8080/sse', tools: ['search'] },
        off: { command: 'nothing', disabled: true },
      },
    });
    const env = {
      GH_TOKEN: 'ghp_secret_123',
      HOME_DIR: '/home/me',
      DOCS_KEY: 'key-456789',
      DOCS_HEADER: 'hdr-123456',
    };
    const config = parseMcpConfig(text, 'mcp.json', env);
    expect(config.servers).toEqual([
      {
        name: 'github',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github', '--home=/home/me'],
          env: { GITHUB_TOKEN: 'ghp_secret_123', MODE: 'read-only' },
        },
      },
      {
        name: 'docs',
        transport: {
          kind: 'http',
          url: 'https://docs.example.com/mcp?key=key-456789',
          headers: { 'X-Api-Key': 'hdr-123456' },
          sse: 'fallback',
        },
      },
      {
        name: 'legacy',
        transport: { kind: 'http', url: 'http://localhost:8080/sse', headers: {}, sse: 'only' },
        tools: ['search'],
      },
    ]);
    // What came from the environment into env, headers or a URL is secret; a path in args is not.
    expect(config.secrets.sort()).toEqual(['ghp_secret_123', 'hdr-123456', 'key-456789']);
  });

  it('reports a syntax error with its line and column', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n';
    expect(problemsOf(text)).toEqual(['mcp.json:4:5: expected a comma between entries']);
  });

  it('reports every problem at once, each with its line', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "x" },',
      '    "neither": { "args": [] },',
      '    "both": { "command": "x", "url": "https://a.example" },',
      '    "bad url": { "url": "ftp://a.example" },',
      '    "token": { "command": "x", "env": { "T": "${MISSING_TOKEN}" } },',
      '    "args": { "command": "x", "args": "--flag" }',
      '  }',
      '}',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'mcp.json:4:16: mcpServers.neither: needs "command" (a local server) or "url" (a remote one)',
      'mcp.json:5:13: mcpServers.both: has both "command" and "url"; keep one',
      'mcp.json:6:16: "bad url": server names use letters, digits, _ or - (at most 32)',
      'mcp.json:6:25: mcpServers.bad url.url: must be an http:// or https:// URL',
      'mcp.json:7:46: mcpServers.token.env.T: MISSING_TOKEN is not set (used as ${MISSING_TOKEN}); set it in .env or the environment',
      'mcp.json:8:39: mcpServers.args.args: expected array, received string',
    ]);
  });

  it('reads the approval policy per server and per tool; tools as an object offers every tool', () => {
    const text = JSON.stringify({
      mcpServers: {
        github: {
          command: 'npx',
          approval: 'once-per-channel',
          tools: { create_issue: { approval: 'always' }, search_issues: { approval: 'never' }, other: {} },
        },
        docs: { url: 'https://docs.example.com/mcp', tools: ['search'] },
      },
    });
    const [github, docs] = parseMcpConfig(text, 'mcp.json', {}).servers;
    expect(github).toMatchObject({
      approval: 'once-per-channel',
      toolApprovals: { create_issue: 'always', search_issues: 'never' },
    });
    expect(github?.tools).toBeUndefined();
    expect(docs).toMatchObject({ tools: ['search'] });
    expect(docs?.approval).toBeUndefined();
  });

  it('refuses an unknown approval policy, or an unknown field of a tool, with its line', () => {
    const text = [
      '{ "mcpServers": {',
      '  "a": { "command": "x", "approval": "sometimes" },',
      '  "b": { "command": "x", "tools": { "t": { "aproval": "always" } } }',
      '} }',
    ].join('\n');
    const problems = problemsOf(text);
    expect(problems[0]).toMatch(
      /^mcp\.json:2:\d+: mcpServers\.a\.approval: must be one of never, always, once-per-channel$/,
    );
    expect(problems[1]).toMatch(/^mcp\.json:3:\d+: mcpServers\.b\.tools/);
  });

  it('needs mcpServers', () => {
    expect(problemsOf('{ "servers": {} }')).toEqual([
      'mcp.json:1:1: mcpServers: expected record, received undefined',
    ]);
    expect(problemsOf('')).toEqual(['mcp.json:1:1: the file is empty']);
  });

  describe('which file', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'thinkthread-mcp-config-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('is MCP_CONFIG when set (which must exist), else ./mcp.json when present, else none', () => {
      expect(mcpConfigFile(undefined, dir)).toBeUndefined();
      writeFileSync(join(dir, 'mcp.json'), '{"mcpServers":{}}');
      expect(mcpConfigFile(undefined, dir)).toBe(join(dir, 'mcp.json'));
      expect(mcpConfigFile('./mcp.json', dir)).toBe(join(dir, 'mcp.json'));
      expect(() => mcpConfigFile('./other.json', dir)).toThrow(
        /other\.json cannot be used:\n.*MCP_CONFIG names this file, which does not exist/,
      );
    });
  });
});
