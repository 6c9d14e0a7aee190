/**
 * Replays (`npm run eval -- --recorded`): every tool answers with the observation the case recorded instead of
 * running. The run's conversation key says which case is asking, so cases can run side by side.
 */
import { isDeepStrictEqual } from 'node:util';
import { ToolError } from '../core/errors.js';
import type { Tool } from '../core/tools/define-tool.js';
import type { RecordedObservation } from './eval-case.js';

/** The recorded observation for a call: one for this exact input first, else one given for any input. */
export function recordedFor(
  recorded: readonly RecordedObservation[],
  tool: string,
  input: unknown,
): RecordedObservation | undefined {
  const mine = recorded.filter((r) => r.tool === tool);
  return (
    mine.find((r) => r.input !== undefined && isDeepStrictEqual(r.input, input)) ??
    mine.find((r) => r.input === undefined)
  );
}

/** Wraps tools to answer from `recordings(key)`, the recorded observations of the case asking under `key`. */
export function replayingTools(
  recordings: (key: string | undefined) => readonly RecordedObservation[],
): (tool: Tool) => Tool {
  return (tool) => ({
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    parameters: tool.parameters,
    ...(tool.quotedAs ? { quotedAs: tool.quotedAs } : {}),
    execute: async (input, context) => {
      const hit = recordedFor(recordings(context.key), tool.name, input);
      if (!hit) throw new ToolError(`no recorded observation of ${tool.name} for this input`);
      return hit.output;
    },
  });
}
