import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A byte-pair tokenizer: what memory budgets count with. */
export interface Bpe {
  encode(text: string): number[];
  count(text: string): number;
  decode(tokens: readonly number[]): string;
}

/**
 * The o200k tokenizer (GPT-4o family), with gpt-tokenizer's ranks and split pattern but its own tables: the
 * 200,000 tokens' bytes in one typed array and an open-addressing hash over them, about 6 MB, where
 * gpt-tokenizer's strings, Maps and the module they are built from leave about 69 MB of RSS. It encodes
 * exactly as gpt-tokenizer does with no special tokens allowed (tests/core/memory/compact-bpe.test.ts
 * compares them), which is how memory counts text (a user's "<|endoftext|>" is text).
 */
export function loadO200k(): Bpe {
  const require = createRequire(import.meta.url);
  const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/cjs/encodingParams/constants') as {
    O200K_TOKEN_SPLIT_REGEX: RegExp;
  };
  const source = readFileSync(require.resolve('gpt-tokenizer/cjs/bpeRanks/o200k_base'));
  return createBpe(parseRanks(source), new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'));
}

/** Every token's bytes, concatenated in rank order; token `r` is `bytes[offsets[r]..offsets[r + 1]]`. */
interface Ranks {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/**
 * Reads gpt-tokenizer's rank file without running it, byte by byte, so building the tables makes no JavaScript
 * string per token (their garbage alone grew the heap by tens of MB). Its arrays hold one token per entry: a
 * string literal on one line (the token's UTF-8 bytes, some escaped) or an array of byte values, on one
 * line or one value per line (bytes that are not UTF-8 on their own).
 */
export function parseRanks(source: Uint8Array): Ranks {
  const bytes = new Uint8Array(source.length);
  const offsets = new Uint32Array(source.length >> 2);
  let used = 0;
  let count = 0;
  const emit = (codePoint: number) => {
    if (codePoint < 0x80) bytes[used++] = codePoint;
    else if (codePoint < 0x800) {
      bytes[used++] = 0xc0 | (codePoint >> 6);
      bytes[used++] = 0x80 | (codePoint & 0x3f);
    } else if (codePoint < 0x10000) {
      bytes[used++] = 0xe0 | (codePoint >> 12);
      bytes[used++] = 0x80 | ((codePoint >> 6) & 0x3f);
      bytes[used++] = 0x80 | (codePoint & 0x3f);
    } else {
      bytes[used++] = 0xf0 | (codePoint >> 18);
      bytes[used++] = 0x80 | ((codePoint >> 12) & 0x3f);
      bytes[used++] = 0x80 | ((codePoint >> 6) & 0x3f);
      bytes[used++] = 0x80 | (codePoint & 0x3f);
    }
  };
  const hex = (from: number, digits: number) =>
    Number.parseInt(String.fromCharCode(...source.subarray(from, from + digits)), 16);
  const ARRAY_START = /^const c\d+ = \[$/;
  let inArray = false;
  let inBytes = false;
  for (let start = 0; start < source.length; ) {
    let end = source.indexOf(0x0a, start);
    if (end === -1) end = source.length;
    let i = start;
    while (i < end && (source[i] === 0x09 || source[i] === 0x20)) i++;
    const first = source[i];
    if (!inArray) {
      inArray = first === 0x63 /* c */ && ARRAY_START.test(String.fromCharCode(...source.subarray(i, end)));
    } else if (inBytes) {
      if (first === 0x5d /* ] */) {
        inBytes = false;
        offsets[++count] = used;
      } else {
        let value = 0;
        for (; i < end && source[i]! >= 0x30 && source[i]! <= 0x39; i++)
          value = value * 10 + source[i]! - 0x30;
        bytes[used++] = value;
      }
    } else if (first === 0x5d /* ]; */) {
      inArray = false;
    } else if (first === 0x5b /* [ */) {
      // `[161],` on one line, or `[` and then one value per line.
      const close = source.indexOf(0x5d, i);
      if (close !== -1 && close < end) {
        for (const value of String.fromCharCode(...source.subarray(i + 1, close)).split(',')) {
          bytes[used++] = Number(value);
        }
        offsets[++count] = used;
      } else {
        inBytes = true;
      }
    } else if (first === 0x22 /* " */) {
      for (i++; source[i] !== 0x22; i++) {
        if (source[i] !== 0x5c /* \ */) {
          bytes[used++] = source[i]!;
          continue;
        }
        const code = source[++i]!;
        if (code === 0x78 /* x */) {
          emit(hex(i + 1, 2));
          i += 2;
        } else if (code === 0x75 /* u */) {
          let codePoint = hex(i + 1, 4);
          i += 4;
          // A surrogate pair written as two escapes is one character.
          if (codePoint >= 0xd800 && codePoint < 0xdc00 && source[i + 1] === 0x5c && source[i + 2] === 0x75) {
            const low = hex(i + 3, 4);
            if (low >= 0xdc00 && low < 0xe000) {
              codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
              i += 6;
            }
          }
          emit(codePoint);
        } else {
          bytes[used++] = SIMPLE_ESCAPES[code] ?? code;
        }
      }
      offsets[++count] = used;
    } else if (i < end) {
      throw new Error(
        `unexpected line in the o200k rank file: ${String.fromCharCode(...source.subarray(i, Math.min(end, i + 40)))}`,
      );
    }
    start = end + 1;
  }
  if (count < 1000) throw new Error('the o200k rank file held too few tokens');
  return { bytes: bytes.slice(0, used), offsets: offsets.slice(0, count + 1) };
}

/** The byte each one-letter escape of a string literal stands for (others stand for the letter itself). */
const SIMPLE_ESCAPES: Record<number, number> = {
  110: 0x0a, // \n
  114: 0x0d, // \r
  116: 0x09, // \t
  98: 0x08, // \b
  102: 0x0c, // \f
  118: 0x0b, // \v
  48: 0x00, // \0
};

/** Pieces whose tokens are kept: a few hundred KB, most of a conversation's words. */
const RECENT_PIECES = 8192;

/** A tokenizer over `ranks`, splitting text into pieces with `split` first (a global, Unicode RegExp). */
export function createBpe({ bytes, offsets }: Ranks, split: RegExp): Bpe {
  const tokens = offsets.length - 1;
  let size = 1;
  while (size < tokens * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const hash = (buffer: Uint8Array, start: number, end: number) => {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buffer[i]!, 0x01000193);
    return h >>> 0;
  };
  for (let rank = 0; rank < tokens; rank++) {
    let slot = hash(bytes, offsets[rank]!, offsets[rank + 1]!) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = rank;
  }
  /** The rank of `buffer[start..end]`, or -1. */
  const rankOf = (buffer: Uint8Array, start: number, end: number): number => {
    const length = end - start;
    for (let slot = hash(buffer, start, end) & mask; ; slot = (slot + 1) & mask) {
      const rank = table[slot]!;
      if (rank === -1) return -1;
      const from = offsets[rank]!;
      if (offsets[rank + 1]! - from !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (bytes[from + i] !== buffer[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return rank;
    }
  };

  const encoder = new TextEncoder();
  let scratch = new Uint8Array(1024);
  /** Appends the tokens of one piece (gpt-tokenizer's bytePairMerge: the leftmost lowest-ranked pair first). */
  const encodePiece = (piece: string, out: number[]) => {
    if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
    const length = encoder.encodeInto(piece, scratch).written;
    const whole = rankOf(scratch, 0, length);
    if (whole !== -1) {
      out.push(whole);
      return;
    }
    const pairRank = (start: number, end: number | undefined) => {
      if (end === undefined) return Number.POSITIVE_INFINITY;
      const rank = rankOf(scratch, start, end);
      return rank === -1 ? Number.POSITIVE_INFINITY : rank;
    };
    const starts: number[] = [];
    const ranks: number[] = [];
    for (let i = 0; i <= length; i++) {
      starts.push(i);
      ranks.push(i < length - 1 ? pairRank(i, i + 2) : Number.POSITIVE_INFINITY);
    }
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at, 1);
      ranks[at] = pairRank(starts[at]!, starts[at + 2]);
      if (at > 0) ranks[at - 1] = pairRank(starts[at - 1]!, starts[at + 1]);
    }
    for (let i = 0; i < starts.length - 1; i++) {
      const rank = rankOf(scratch, starts[i]!, starts[i + 1]!);
      if (rank === -1) throw new Error('a byte is missing from the tokenizer');
      out.push(rank);
    }
  };

  // Recent pieces and their tokens: most text repeats its words, and a Map lookup beats hashing the bytes.
  const recent = new Map<string, number | number[]>();
  const encode = (text: string): number[] => {
    const out: number[] = [];
    for (const [piece] of text.matchAll(split)) {
      const known = recent.get(piece);
      if (known !== undefined) {
        if (typeof known === 'number') out.push(known);
        else out.push(...known);
        continue;
      }
      const from = out.length;
      encodePiece(piece, out);
      if (recent.size >= RECENT_PIECES) recent.delete(recent.keys().next().value as string);
      recent.set(piece, out.length - from === 1 ? out[from]! : out.slice(from));
    }
    return out;
  };
  return {
    encode,
    count: (text) => encode(text).length,
    decode(list) {
      let length = 0;
      for (const rank of list) length += offsets[rank + 1]! - offsets[rank]!;
      const buffer = new Uint8Array(length);
      let at = 0;
      for (const rank of list) {
        buffer.set(bytes.subarray(offsets[rank]!, offsets[rank + 1]!), at);
        at += offsets[rank + 1]! - offsets[rank]!;
      }
      // A cut inside a character drops its first bytes rather than showing a replacement character.
      return new TextDecoder().decode(buffer, { stream: true });
    },
  };
}
