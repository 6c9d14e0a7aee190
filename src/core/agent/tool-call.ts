import type { ToolImage } from '../tools/define-tool.js';
import type { UntrustedSource } from '../util/untrusted.js';

/** A tool call as the protocol parsed it: raw JSON text (tools protocol) or object/string (text protocol). */
export interface PendingCall {
  id: string;
  tool: string;
  input: string | Record<string, unknown>;
  /** True when `input` is the raw JSON argument text of a native tool call. */
  rawJson: boolean;
}

/** The outcome of one tool call, ready to become an Observation. */
export interface Observation {
  text: string;
  ok: boolean;
  /** How the model is shown it (see util/untrusted.ts): `tool` when absent. */
  source?: UntrustedSource | undefined;
  /** Images the tool returned, shown to vision models after the observations. */
  images?: readonly ToolImage[];
}
