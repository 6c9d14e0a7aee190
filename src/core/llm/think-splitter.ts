/**
 * Reasoning models (DeepSeek-R1, Qwen3, QwQ) put their private reasoning in `<think>…</think>` at the start
 * of the reply. This splits streamed content into reasoning and the reply proper, with tags that may arrive
 * split across chunks and a block left unclosed when the reply ends.
 */

/** Where each piece of streamed content goes. */
export interface ThinkSplitter {
  /** Splits one chunk; calls back with the parts that are known to be reasoning or reply. */
  push(chunk: string): void;
  /** The reply ended: whatever was held back is delivered (an unclosed block counts as reasoning). */
  end(): void;
}

const OPEN = /^\s*<think(?:ing)?>/i;
const CLOSE = /<\/think(?:ing)?>/i;
const OPEN_TAGS = ['<think>', '<thinking>'];
const CLOSE_TAGS = ['</think>', '</thinking>'];

/** True when `text` could still grow into one of `tags` (a tag split across chunks). */
function mayBecome(text: string, tags: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return tags.some((tag) => tag.startsWith(lower));
}

/** How many trailing characters of `text` could be the start of one of `tags`. */
function partialTail(text: string, tags: readonly string[]): number {
  const longest = Math.max(...tags.map((t) => t.length)) - 1;
  for (let n = Math.min(longest, text.length); n > 0; n--) {
    if (mayBecome(text.slice(text.length - n), tags)) return n;
  }
  return 0;
}

/**
 * A splitter calling `onReply` and `onReasoning` with the parts of the content. Only a block at the start
 * of the reply (or right after another one) is reasoning, so an answer that mentions the tag keeps it.
 */
export function createThinkSplitter(
  onReply: (text: string) => void,
  onReasoning: (text: string) => void,
): ThinkSplitter {
  let mode: 'start' | 'think' | 'reply' = 'start';
  let held = '';
  const emit = (fn: (text: string) => void, text: string) => {
    if (text) fn(text);
  };

  /** Delivers what `held` settles, switching modes at each tag found. */
  const settle = () => {
    for (;;) {
      if (mode === 'start') {
        const open = OPEN.exec(held);
        if (open) {
          held = held.slice(open[0].length);
          mode = 'think';
          continue;
        }
        const trimmed = held.trimStart();
        if (trimmed === '' || mayBecome(trimmed, OPEN_TAGS)) return;
        mode = 'reply';
        emit(onReply, held);
        held = '';
        return;
      }
      if (mode !== 'think') return;
      const close = CLOSE.exec(held);
      if (!close) {
        const keep = partialTail(held, CLOSE_TAGS);
        emit(onReasoning, held.slice(0, held.length - keep));
        held = held.slice(held.length - keep);
        return;
      }
      emit(onReasoning, held.slice(0, close.index));
      held = held.slice(close.index + close[0].length);
      mode = 'start';
    }
  };

  return {
    push(chunk) {
      if (!chunk) return;
      if (mode === 'reply') {
        onReply(chunk);
        return;
      }
      held += chunk;
      settle();
    },
    end() {
      if (mode === 'think') emit(onReasoning, held);
      else emit(onReply, held);
      held = '';
      mode = 'reply';
    },
  };
}

/**
 * Splits a whole reply: `<think>` blocks at its start are reasoning, and so is everything before a lone
 * `</think>` (servers whose chat template opens the block themselves).
 */
export function splitThinking(content: string): { reply: string; reasoning: string } {
  let reply = '';
  let reasoning = '';
  const splitter = createThinkSplitter(
    (text) => {
      reply += text;
    },
    (text) => {
      reasoning += text;
    },
  );
  splitter.push(content);
  splitter.end();
  return loneClose(reply, reasoning);
}

/** Moves what precedes a lone closing tag in `reply` into the reasoning. */
export function loneClose(reply: string, reasoning: string): { reply: string; reasoning: string } {
  const close = CLOSE.exec(reply);
  if (!close || /<think(?:ing)?>/i.test(reply.slice(0, close.index))) return { reply, reasoning };
  const before = reply.slice(0, close.index);
  return {
    reply: reply.slice(close.index + close[0].length),
    reasoning: reasoning ? `${reasoning}\n\n${before}` : before,
  };
}
