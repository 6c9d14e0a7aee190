import type { types } from '@slack/bolt';
import { cut } from '../shared/format-step.js';
import { TASK_FIELD_CHARS } from './native-markdown.js';

/** Most sources one task card lists (web_search returns five results). */
export const SOURCES_MAX = 5;
/** A line longer than this is no title: the link is named by its address instead. */
const TITLE_MAX = 120;
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/g;

/**
 * The web addresses a tool's result names, as Slack's URL source elements for its task card
 * (docs.slack.dev/reference/block-kit/block-elements/url-source-element: `type: "url"`, `url`, `text`, all
 * required). Each is named by the numbered line before it (web_search's "1. Title"), else by the result's first
 * line when that is a short heading (wikipedia), else by its host and path.
 */
export function sourcesOf(text: string): types.URLSourceElement[] {
  const lines = text.split('\n');
  const sources: types.URLSourceElement[] = [];
  let blockStart = 0;
  for (const [index, line] of lines.entries()) {
    const urls = [...line.matchAll(URL_PATTERN)].map((m) => m[0].replace(/[).,;:!?\]]+$/, ''));
    if (urls.length === 0) continue;
    const before = lines.slice(blockStart, index);
    for (const url of urls) {
      if (sources.length >= SOURCES_MAX) return sources;
      if (sources.some((s) => s.url === url) || !isWebAddress(url)) continue;
      sources.push({ type: 'url', url, text: label(url, before, blockStart === 0) });
    }
    blockStart = index + 1;
  }
  return sources;
}

/** What a link is called: its numbered title, the result's heading, or its address without the scheme. */
function label(url: string, before: readonly string[], first: boolean): string {
  const numbered = before
    .map((line) => /^\s*\d+\.\s+(.+)$/.exec(line)?.[1]?.trim())
    .filter((title): title is string => !!title)
    .at(-1);
  const heading = first ? before[0]?.trim() : undefined;
  const title = [numbered, heading].find((t) => t && t.length <= TITLE_MAX && t !== url);
  const shown = title ?? url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return cut(shown, TASK_FIELD_CHARS - 1).text;
}

function isWebAddress(text: string): boolean {
  try {
    const { protocol, hostname } = new URL(text);
    return (protocol === 'https:' || protocol === 'http:') && hostname.length > 0;
  } catch {
    return false;
  }
}
