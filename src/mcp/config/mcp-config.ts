import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { getNodeValue } from 'jsonc-parser';
import { z } from 'zod';
import { TOOL_APPROVALS, type ToolApproval } from '../../core/approvals/approval-policy.js';
import { ThinkthreadError } from '../../core/errors.js';
import { expandVars } from './expand-vars.js';
import { type JsonSource, parseJsonSource } from './json-source.js';

/** How to reach one MCP server. */
export type McpTransportConfig =
  | { kind: 'stdio'; command: string; args: readonly string[]; env: Record<string, string>; cwd?: string }
  /** Streamable HTTP, falling back to the older SSE transport unless `sse` says which one. */
  | { kind: 'http'; url: string; headers: Record<string, string>; sse: 'fallback' | 'only' };

/** One server of mcp.json, with `${VAR}` expanded. */
export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  /** Only these of its tools are offered (by their names on the server); all when unset. */
  tools?: readonly string[] | undefined;
  /** Whether its tools wait for a person's approval (`"approval"`); APPROVAL_DEFAULT_MCP when unset. */
  approval?: ToolApproval | undefined;
  /** Per tool (by its name on the server), from `"tools": { "<tool>": { "approval": … } }`. */
  toolApprovals?: Readonly<Record<string, ToolApproval>> | undefined;
}

/** A loaded mcp.json. */
export interface McpConfig {
  file: string;
  servers: McpServerConfig[];
  /** Values expanded into `env`, `headers` and `url`: to be scrubbed from logs and tool output. */
  secrets: string[];
}

/** mcp.json cannot be used: `problems` lists each one as `file:line:column: where: what`. */
export class McpConfigError extends ThinkthreadError {
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    super('config', `${file} cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

const approvalSchema = z.enum(TOOL_APPROVALS as [ToolApproval, ...ToolApproval[]], {
  error: `must be one of ${TOOL_APPROVALS.join(', ')}`,
});

const entrySchema = z
  .object({
    command: z.string().trim().min(1, 'must not be empty').optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    headers: z.record(z.string(), z.string()).default({}),
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    tools: z
      .union([
        z.array(z.string().min(1)),
        z.record(z.string().min(1), z.strictObject({ approval: approvalSchema.optional() })),
      ])
      .optional(),
    approval: approvalSchema.optional(),
    disabled: z.boolean().default(false),
  })
  .superRefine((entry, ctx) => {
    if (entry.command === undefined && entry.url === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs "command" (a local server) or "url" (a remote one)' });
    } else if (entry.command !== undefined && entry.url !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'has both "command" and "url"; keep one' });
    }
  });

const fileSchema = z.object({ mcpServers: z.record(z.string(), entrySchema) });

/**
 * The mcp.json to load: `setting` (MCP_CONFIG) when given, which must exist; else `./mcp.json` when it
 * exists; else none (no MCP servers).
 */
export function mcpConfigFile(setting: string | undefined, cwd = process.cwd()): string | undefined {
  if (setting) {
    const file = resolve(cwd, setting);
    if (!existsSync(file))
      throw new McpConfigError(setting, ['MCP_CONFIG names this file, which does not exist']);
    return file;
  }
  const fallback = resolve(cwd, 'mcp.json');
  return existsSync(fallback) ? fallback : undefined;
}

/** Reads, checks and expands an mcp.json; throws {@link McpConfigError} listing every problem at once. */
export function loadMcpConfig(file: string, env: Readonly<Record<string, string | undefined>>): McpConfig {
  const shown = relative(process.cwd(), file);
  const name = shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new McpConfigError(name, [`cannot be read: ${err instanceof Error ? err.message : String(err)}`]);
  }
  return { ...parseMcpConfig(text, name, env), file };
}

/** Checks and expands the text of an mcp.json named `file` (used in messages). */
export function parseMcpConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): McpConfig {
  const source = parseJsonSource(text);
  if (source.syntaxErrors.length > 0) {
    throw new McpConfigError(
      file,
      source.syntaxErrors.map((e) => `${file}:${e}`),
    );
  }
  const problems: string[] = [];
  const secrets: string[] = [];
  const expanded = expandTree(getNodeValue(source.root!), [], (path, value) => {
    const result = expandVars(value, env);
    for (const p of result.problems) problems.push(`${file}:${source.where(path)}: ${dotted(path)}: ${p}`);
    if (isSecretPlace(path)) secrets.push(...result.substituted);
    return result.text;
  });
  const names = (expanded as { mcpServers?: unknown } | undefined)?.mcpServers;
  if (names !== null && typeof names === 'object' && !Array.isArray(names)) {
    for (const name of Object.keys(names).filter((n) => !SERVER_NAME.test(n))) {
      problems.push(
        `${file}:${source.where(['mcpServers', name])}: "${name}": server names use letters, digits, _ or - (at most 32)`,
      );
    }
  }
  const parsed = fileSchema.safeParse(expanded);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeIssue(issue, file, source));
  }
  if (problems.length > 0 || !parsed.success) throw new McpConfigError(file, inFileOrder(problems, file));

  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    if (entry.disabled) continue;
    const tools = entry.tools;
    const toolApprovals =
      tools && !Array.isArray(tools)
        ? Object.fromEntries(
            Object.entries(tools).flatMap(([tool, set]) => (set.approval ? [[tool, set.approval]] : [])),
          )
        : undefined;
    servers.push({
      name,
      transport: transportOf(entry),
      ...(Array.isArray(tools) ? { tools } : {}),
      ...(entry.approval ? { approval: entry.approval } : {}),
      ...(toolApprovals ? { toolApprovals } : {}),
    });
  }
  return { file, servers, secrets: [...new Set(secrets)] };
}

function transportOf(entry: z.output<typeof entrySchema>): McpTransportConfig {
  if (entry.url !== undefined) {
    return {
      kind: 'http',
      url: entry.url,
      headers: entry.headers,
      sse: entry.type === 'sse' ? 'only' : 'fallback',
    };
  }
  return {
    kind: 'stdio',
    command: entry.command ?? '',
    args: entry.args,
    env: entry.env,
    ...(entry.cwd ? { cwd: entry.cwd } : {}),
  };
}

/** `${VAR}` expanded into a server's env, headers or URL is a secret; in args or a command it is not. */
function isSecretPlace(path: readonly PropertyKey[]): boolean {
  return path[0] === 'mcpServers' && (path[2] === 'env' || path[2] === 'headers' || path[2] === 'url');
}

function expandTree(
  value: unknown,
  path: PropertyKey[],
  expand: (path: readonly PropertyKey[], text: string) => string,
): unknown {
  if (typeof value === 'string') return expand(path, value);
  if (Array.isArray(value)) return value.map((item, i) => expandTree(item, [...path, i], expand));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandTree(item, [...path, key], expand)]),
    );
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue, file: string, source: JsonSource): string {
  const path = issue.path;
  const where = dotted(path) || 'the file';
  const message =
    issue.code === 'invalid_key' ? 'server names use letters, digits, _ or - (at most 32)' : issue.message;
  return `${file}:${source.where(path)}: ${where}: ${plain(message)}`;
}

function inFileOrder(problems: readonly string[], file: string): string[] {
  const position = (p: string) =>
    p
      .slice(file.length + 1)
      .split(':', 2)
      .map(Number) as [number, number];
  return [...problems].sort((a, b) => {
    const [la, ca] = position(a);
    const [lb, cb] = position(b);
    return la - lb || ca - cb;
  });
}

function plain(message: string): string {
  return message.replace(/^Invalid input: /, '');
}

function dotted(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}
