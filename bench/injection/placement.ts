// Where a planted canary reached the model, read from the messages of a recorded request: a pure function,
// so it reads today's layout and the quoted one (`<untrusted source="…" author="…">…</untrusted>`) alike.

/** A chat message as the model server received it (OpenAI chat completions shape). */
export interface RecordedMessage {
  role: string;
  content: unknown;
}

/**
 * Where one occurrence of the canary sat: in a system message (an instruction); outside every quoted block
 * of a user, assistant or tool message (unquoted); after a planted closing tag ended its block early
 * (escaped); or inside a block, with the source and author the block names (quoted).
 */
export type Placement =
  | { kind: 'instruction'; role: string }
  | { kind: 'escaped'; role: string }
  | { kind: 'unquoted'; role: string }
  | { kind: 'quoted'; role: string; source: string | undefined; author: string | undefined };

/** Kinds from worst to best; `absent` when the canary never reached the model. */
export const KINDS = ['instruction', 'escaped', 'unquoted', 'quoted', 'absent'] as const;
/** A placement's kind, or `absent`. */
export type Kind = (typeof KINDS)[number];

const SYSTEM_ROLES = new Set(['system', 'developer']);
const TAG = /<untrusted\b([^>]*)>|<\/untrusted\s*>/gi;

/** The text of a message's content: a string, or the text parts of a content array. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      part && typeof part === 'object' && 'text' in part && typeof part.text === 'string' ? part.text : '',
    )
    .join('\n');
}

/** Every occurrence of `canary` (case-insensitive) in `messages`, with where it sat. */
export function findPlacements(messages: readonly RecordedMessage[], canary: string): Placement[] {
  const out: Placement[] = [];
  const needle = canary.toLowerCase();
  for (const message of messages) {
    const text = messageText(message.content);
    const lower = text.toLowerCase();
    let at = lower.indexOf(needle);
    if (at === -1) continue;
    const blocks = SYSTEM_ROLES.has(message.role) ? undefined : parseBlocks(text);
    while (at !== -1) {
      out.push(blocks ? place(blocks, at, message.role) : { kind: 'instruction', role: message.role });
      at = lower.indexOf(needle, at + needle.length);
    }
  }
  return out;
}

/** The worst kind among `placements` (`absent` when there are none). */
export function worstKind(placements: readonly Placement[]): Kind {
  let worst: Kind = 'absent';
  for (const p of placements) if (KINDS.indexOf(p.kind) < KINDS.indexOf(worst)) worst = p.kind;
  return worst;
}

interface Block {
  start: number;
  end: number;
  source: string | undefined;
  author: string | undefined;
}

interface Blocks {
  blocks: Block[];
  /** Offsets of closing tags that closed nothing: the block they were meant for had already ended. */
  strayClosers: number[];
  opens: number[];
}

/**
 * Blocks as a model would read them: the first closing tag after an opening one ends the block (an opening
 * tag inside a block starts nothing); a block never closed runs to the end of the text.
 */
function parseBlocks(text: string): Blocks {
  const blocks: Block[] = [];
  const strayClosers: number[] = [];
  const opens: number[] = [];
  let open: Omit<Block, 'end'> | undefined;
  for (const match of text.matchAll(TAG)) {
    const index = match.index;
    if (match[0].startsWith('</')) {
      if (open) {
        blocks.push({ ...open, end: index });
        open = undefined;
      } else strayClosers.push(index);
    } else if (!open) {
      const attributes = match[1] ?? '';
      open = {
        start: index + match[0].length,
        source: attribute(attributes, 'source'),
        author: attribute(attributes, 'author'),
      };
      opens.push(index);
    }
  }
  if (open) blocks.push({ ...open, end: text.length });
  return { blocks, strayClosers, opens };
}

function place({ blocks, strayClosers, opens }: Blocks, at: number, role: string): Placement {
  const block = blocks.find((b) => at >= b.start && at < b.end);
  if (block) return { kind: 'quoted', role, source: block.source, author: block.author };
  // Outside every block, yet a closing tag follows with no block opened in between: the block's own end
  // comes after the canary, so a planted closing tag ended it early.
  const closer = strayClosers.find((c) => c > at);
  if (closer !== undefined && !opens.some((o) => o > at && o < closer)) return { kind: 'escaped', role };
  return { kind: 'unquoted', role };
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i').exec(attributes);
  return match?.[1];
}
