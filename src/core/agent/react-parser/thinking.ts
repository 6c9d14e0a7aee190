/**
 * Reasoning models wrap their private reasoning in `<think>…</think>`; labels inside it are not the reply's.
 */

/** Replaces every character but line breaks with a space, so offsets into the text stay valid. */
function blank(s: string): string {
  return s.replace(/[^\n\r]/g, ' ');
}

/**
 * Blanks out `<think>…</think>` reasoning (offsets are preserved) and returns it separately. An unclosed
 * `<think>` hides the rest; a lone `</think>` hides everything before it (servers that drop the opening tag).
 */
export function maskThinking(text: string): { text: string; thinking: string } {
  if (!/<\/?think/i.test(text)) return { text, thinking: '' };
  const re = /<(\/?)think(?:ing)?>/gi;
  const parts: string[] = [];
  const thoughts: string[] = [];
  let last = 0;
  let openAt = -1;
  let contentAt = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (!m[1]) {
      if (openAt < 0) {
        parts.push(text.slice(last, m.index));
        openAt = m.index;
        contentAt = end;
      }
    } else if (openAt >= 0) {
      thoughts.push(text.slice(contentAt, m.index));
      parts.push(blank(text.slice(openAt, end)));
      last = end;
      openAt = -1;
    } else if (last === 0 && parts.length === 0) {
      thoughts.push(text.slice(0, m.index));
      parts.push(blank(text.slice(0, end)));
      last = end;
    }
  }
  if (openAt >= 0) {
    thoughts.push(text.slice(contentAt));
    parts.push(blank(text.slice(openAt)));
    last = text.length;
  }
  parts.push(text.slice(last));
  return {
    text: parts.join(''),
    thinking: thoughts
      .map((t) => t.trim())
      .filter(Boolean)
      .join('\n\n'),
  };
}
