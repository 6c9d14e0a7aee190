import { searchTerms } from '../../core/memory/recall-query.js';

// Scripts written without spaces between words: indexed as overlapping pairs of characters (bigrams), as
// Lucene's CJK analyzer does, since the word tokenizer would take a whole run as one word.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** A run of unspaced script as its bigrams (a lone character stays itself). */
function bigrams(run: string): string {
  const chars = [...run];
  if (chars.length < 2) return run;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs.join(' ');
}

/** Text as the word index takes it: words as they are, unspaced scripts as bigrams. */
export function indexText(text: string): string {
  return text.replace(UNSPACED, (run) => ` ${bigrams(run)} `);
}

/**
 * The FTS5 phrases for `query`: each search term quoted (its words a phrase, so nothing in it is syntax),
 * unspaced scripts as bigram phrases. Empty when no term is left.
 */
export function wordPhrases(query: string): string[] {
  return searchTerms(query).map((term) => `"${indexText(term).trim().replaceAll('"', '')}"`);
}
