/**
 * Characters a terminal (or a log viewer printing to one) acts on instead of showing: C0 controls, DEL, the
 * C1 controls (0x9b is CSI, 0x9d OSC on terminals that take 8-bit controls), the line and paragraph
 * separators, and the bidirectional embeddings, overrides and isolates that reorder what is shown
 * ("Trojan Source", CVE-2021-42574).
 */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const patterns = new Map<string, RegExp>();

/** Every control character but those in `keep` (e.g. `'\n\t'`), as a global pattern. */
function controlPattern(keep: string): RegExp {
  let pattern = patterns.get(keep);
  if (!pattern) {
    const kept = [...keep].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    pattern = new RegExp(kept ? `(?![${kept}])[${CONTROL}]` : `[${CONTROL}]`, 'g');
    patterns.set(keep, pattern);
  }
  return pattern;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One control character as text anyone can read: `\r`, `\x1b`, `\x9d`, `\u202e`. */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}

/**
 * Text someone else wrote (an MCP server's stderr, its error messages, its tool names), safe to print
 * anywhere: each control character but those in `keep` shown as a visible escape, so nothing reaches a
 * terminal raw and nothing is hidden from who reads it. Escaping escaped text changes nothing.
 */
export function escapeControls(text: string, keep = ''): string {
  return text.replace(controlPattern(keep), visible);
}

/** Text with every control character but those in `keep` removed, for readers that gain nothing by seeing them. */
export function removeControls(text: string, keep = ''): string {
  return text.replace(controlPattern(keep), '');
}

/**
 * A JSON text with every control character still raw in it (a serializer leaves DEL, C1 and U+2028 as
 * they are) written as a JSON escape: the same value once parsed, and nothing a terminal acts on.
 */
export function jsonEscapeControls(json: string, keep = '\n'): string {
  return json.replace(controlPattern(keep), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
