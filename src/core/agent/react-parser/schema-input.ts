/**
 * Fitting a plain-text Action Input to the tool's schema: the text is the value of its one string field; a tool
 * with several fields needs a JSON object, and the reminder names them.
 */
import type { ToolInput } from './input.js';

/** A tool as the parser sees it: its name and, when known, its JSON schema. */
export interface ToolShape {
  name: string;
  parameters?: Record<string, unknown>;
}

/** The fields of a tool's schema and which of them are required. */
function fieldsOf(parameters: Record<string, unknown>): { all: string[]; required: string[] } {
  const properties = parameters.properties;
  const all = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  const required = Array.isArray(parameters.required)
    ? parameters.required.filter((r): r is string => typeof r === 'string')
    : [];
  return { all, required };
}

/** The input for `tool`: a plain text mapped to its single field, or the fields to name in a reminder. */
export function fitInput(
  input: ToolInput,
  shape: ToolShape | undefined,
): { input: ToolInput } | { fields: string[] } {
  // Broken JSON is not plain text: it goes to the tool as written, to be rejected there.
  if (typeof input !== 'string' || !shape?.parameters || input.trimStart().startsWith('{')) return { input };
  const { all, required } = fieldsOf(shape.parameters);
  const field = all.length === 1 ? all[0] : required.length === 1 ? required[0] : undefined;
  if (field) return { input: { [field]: input } };
  return all.length > 1 ? { fields: required.length > 1 ? required : all } : { input };
}
