import type { MemoryReport } from '../../core/memory/types.js';
import { ACTION_INPUT_CHARS } from './display-limits.js';
import { formatSettings } from './format-settings.js';
import { cutNote } from './wording.js';

/** `calculator {"expression":"2+2"}`: a tool call on one line, input cut to `max` characters. */
export function formatAction(tool: string, input: unknown, max = ACTION_INPUT_CHARS): string {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return `${tool} ${cut(text ?? '', max).text}`;
}

/** Cuts `text` to at most `max` characters (at a line or word boundary when one is near), saying whether it did. */
export function cut(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const boundary = Math.max(text.lastIndexOf('\n', max), text.lastIndexOf(' ', max));
  if (boundary > max * 0.8) end = boundary;
  return { text: `${text.slice(0, end).trimEnd()}…`, cut: true };
}

/** An observation trimmed for display, with a note when it was cut. */
export function formatObservation(text: string, max: number): string {
  const trimmed = cut(text.trim(), max);
  return trimmed.cut ? `${trimmed.text}\n(${cutNote(text.length)})` : trimmed.text;
}

/** The `/memory` report as plain text. */
export function formatMemoryReport(report: MemoryReport): string {
  const lines = [
    `Turns kept verbatim: ${report.turns}`,
    `Turns folded into the summary: ${report.summarizedTurns}`,
    `Tokens in memory: ${report.tokens}`,
    report.summary ? `Summary:\n${report.summary}` : 'Summary: (none yet)',
  ];
  if (report.settings) lines.push(`Settings in force here:\n${formatSettings(report.settings)}`);
  return lines.join('\n');
}
