import { z } from 'zod';
import { isAbortError } from '../errors.js';
import { type Tool, type ToolContext, type ToolImage, ToolInputError } from '../tools/define-tool.js';
import { tracedToolCall } from '../tracing/traced-tool.js';
import { createCallGuard } from '../util/call-guard.js';
import { createLimiter } from '../util/create-limiter.js';
import { quote } from '../util/untrusted.js';
import type { Observation, PendingCall } from './tool-call.js';

/** Longest observation handed back to the model; longer tool output is cut with a marker. */
export const MAX_OBSERVATION_CHARS = 8000;
/** Tool calls run from one model reply; more would blow up the next prompt (each observation up to 8,000 chars). */
export const MAX_CALLS_PER_STEP = 8;

/** An observation as the model reads it: quoted, naming its source and the tool. */
export function quotedObservation(
  call: Pick<PendingCall, 'tool'>,
  observation: Observation | undefined,
): string {
  return quote(observation?.source ?? 'tool', observation?.text ?? '', { tool: call.tool });
}

/** Settings of tool execution. */
export interface ToolRunOptions {
  timeoutMs: number;
  concurrency: number;
  signal: AbortSignal;
  redact?: (text: string) => string;
  /** The run's conversation key and asker, handed to every tool (recall searches only this conversation). */
  conversation?: Omit<ToolContext, 'signal'> | undefined;
  /**
   * Asked before a call runs, with its checked arguments: undefined lets it run, an observation (a denial)
   * is what the model reads instead. Rejects when the run is stopped while a person decides.
   */
  approve?: ((tool: Tool, call: PendingCall, input: unknown) => Promise<Observation | undefined>) | undefined;
}

/** Resolves the input a call will be validated with (JSON text parsed, bare strings mapped to the single field). */
function resolveInput(tool: Tool | undefined, call: PendingCall): { value: unknown } | { error: string } {
  let input: unknown = call.input;
  if (call.rawJson && typeof input === 'string') {
    const text = input.trim();
    if (text === '') return { value: {} };
    try {
      input = JSON.parse(text);
    } catch {
      return { error: `the arguments are not valid JSON: ${truncate(text, 200)}` };
    }
  }
  if (typeof input === 'string' && tool) {
    const field = singleField(tool);
    if (!field) return { error: `expected a JSON object with the fields of ${tool.name}` };
    input = input.trim() === '' ? {} : { [field]: input };
  }
  return { value: input };
}

/** Runs calls with bounded concurrency; `onDone` fires in call order as soon as each result and those before it are ready. */
export async function runToolCalls(
  tools: ReadonlyMap<string, Tool>,
  calls: readonly PendingCall[],
  options: ToolRunOptions,
  onDone: (call: PendingCall, observation: Observation) => void,
): Promise<Observation[]> {
  const limit = createLimiter(options.concurrency);
  // Every call still gets an observation: the protocol needs an answer for each tool_call_id.
  const results = calls.map((call, i) =>
    i < MAX_CALLS_PER_STEP
      ? limit(() => tracedToolCall(call, () => runOne(tools.get(call.tool), call, tools, options)))
      : Promise.resolve(
          fail(`not run: at most ${MAX_CALLS_PER_STEP} tool calls per step; call the rest next.`),
        ),
  );
  // Later calls may still reject (run aborted) after an earlier one threw; never leave them unhandled.
  for (const r of results) r.catch(() => {});
  const observations: Observation[] = [];
  for (let i = 0; i < calls.length; i++) {
    const observation = await results[i]!;
    observations.push(observation);
    onDone(calls[i]!, observation);
  }
  return observations;
}

async function runOne(
  tool: Tool | undefined,
  call: PendingCall,
  tools: ReadonlyMap<string, Tool>,
  options: ToolRunOptions,
): Promise<Observation> {
  if (!tool) {
    return fail(
      `unknown tool "${truncate(call.tool, 60)}". Available tools: ${[...tools.keys()].join(', ') || '(none)'}.`,
    );
  }
  const resolved = resolveInput(tool, call);
  if ('error' in resolved) return fail(`invalid input for ${tool.name}: ${resolved.error}`);
  const parsed = tool.schema.safeParse(resolved.value);
  if (!parsed.success) {
    return fail(`invalid input for ${tool.name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  }
  if (options.signal.aborted) throw options.signal.reason;
  if (options.approve) {
    const denied = await options.approve(tool, call, parsed.data);
    if (denied) return { text: bound(denied.text), ok: false };
    if (options.signal.aborted) throw options.signal.reason;
  }

  const guard = createCallGuard(options.timeoutMs, options.signal, 'tool timeout');
  try {
    // The signal is made only if the tool reads it; the race stops a tool that ignores it anyway.
    const context = {
      get signal() {
        return guard.signal;
      },
      ...options.conversation,
    };
    const run = tool.executeWithImages
      ? tool.executeWithImages(parsed.data, context)
      : tool.execute(parsed.data, context);
    const output = await Promise.race([run, guard.stopped]);
    const text =
      typeof output === 'string' ? output : typeof output?.text === 'string' ? output.text : String(output);
    const images = typeof output === 'object' && output !== null ? keptImages(output.images) : [];
    return {
      text: bound(options.redact ? options.redact(text) : text),
      ok: true,
      ...(tool.quotedAs ? { source: tool.quotedAs } : {}),
      ...(images.length > 0 ? { images } : {}),
    };
  } catch (err) {
    if (options.signal.aborted) throw options.signal.reason ?? err;
    if (guard.expired) return fail(`${tool.name} timed out after ${options.timeoutMs} ms.`);
    const message = err instanceof Error ? err.message : String(err);
    const prefix = err instanceof ToolInputError || isAbortError(err) ? '' : `${tool.name} failed: `;
    return fail(`${prefix}${options.redact ? options.redact(message) : message}`);
  } finally {
    guard.dispose();
  }
}

function fail(message: string): Observation {
  return { text: bound(`Error: ${message}`), ok: false };
}

function bound(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  return `${text.slice(0, MAX_OBSERVATION_CHARS)}\n[… observation cut: ${text.length - MAX_OBSERVATION_CHARS} more characters]`;
}

/** Images one observation may bring, and the largest (base64 characters, about 5 MB of bytes). */
const MAX_IMAGES = 4;
const MAX_IMAGE_BASE64 = 6_700_000;

/** The images an observation keeps: the first few that are not too large. */
function keptImages(images: readonly ToolImage[]): ToolImage[] {
  return images.filter((image) => image.data.length <= MAX_IMAGE_BASE64).slice(0, MAX_IMAGES);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** The one field a bare string input maps to: the only property, or the only required one. */
function singleField(tool: Tool): string | undefined {
  const properties = Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {});
  if (properties.length === 1) return properties[0];
  const required = (tool.parameters.required as string[] | undefined) ?? [];
  return required.length === 1 ? required[0] : undefined;
}
