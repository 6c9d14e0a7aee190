/**
 * Whether prose stops mid-sentence, whatever its language. A reply that ends on closing punctuation (in any
 * script), a closing bracket, quote or markup, an emoji or a list item is complete. Otherwise it was cut when
 * its last word cannot end a sentence (an article, preposition, conjunction or auxiliary: "The capital of
 * France is"), when its last sentence has begun a further clause (a comma, 、 or ;) and never reached its full
 * stop ("巴黎的人口大约是两百一十万，而里昂的人口"), or when the reply ends its other sentences with a full stop
 * but not its last, longer one. A single unpunctuated sentence ("Paris has about 2.1 million inhabitants")
 * or a bare value is complete.
 */

/** Characters a complete reply can end with. */
const END_CHARS = '.!?。！？…)]}"\'`*_>|:;~”’」』】）》';

const LIST_ITEM_RE = /^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]/;

/** Words that cannot end a sentence, in the languages models most often answer in. */
const CONTINUATION_WORDS = new Set(
  [
    'a an the of to in on at by for with from into onto about over under as and or but nor if that which who',
    'whom whose while because although though when where than is are was were be been being has have had do',
    'does did will would can could should may might must shall my your his her its our their this these those',
    'such very not no de la le les des du et ou que qui à au aux un une en der die das dem den des und oder',
    'mit von zu im ist als ob dass wie aber auf für bei nach aus ein eine einen einem el los las y con por',
    'para del al es son o e di il lo gli della che per è',
  ]
    .join(' ')
    .split(' '),
);

/** A clause separator that is not a digit group's comma (`100,000`). */
const CLAUSE_RE = /(?<!\d),|,(?!\d)|[，、;；]/;

/** A sentence end followed by more text: the reply punctuates its sentences. */
const SENTENCE_STOP_RE = /[.!?]["'”’)]*(?:\s|$)|[。！？]/;

const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;

/** Words in a line, counting two characters of a script written without spaces as one word. */
function weight(line: string): number {
  const cjk = line.match(CJK_RE)?.length ?? 0;
  return line.replace(CJK_RE, ' ').split(/\s+/).filter(Boolean).length + cjk / 2;
}

/**
 * Whether trimmed, non-empty prose ends as a finished sentence or list does: closing punctuation, a closing
 * bracket, quote or markup, an emoji, a list item, or (with `digits`) a number.
 */
export function endsClosed(text: string, digits = false): boolean {
  const last = text.at(-1)!;
  if (END_CHARS.includes(last) || /\p{Extended_Pictographic}/u.test(last)) return true;
  if (digits && last >= '0' && last <= '9') return true;
  const nl = text.lastIndexOf('\n');
  return nl >= 0 && LIST_ITEM_RE.test(text.slice(nl + 1, nl + 40));
}

/** Whether trimmed, non-empty prose ends as a complete reply does. */
export function endsComplete(text: string): boolean {
  if (endsClosed(text)) return true;
  const line = text.slice(text.lastIndexOf('\n') + 1).slice(-400);
  const word = /[\p{L}']+$/u.exec(line)?.[0].toLowerCase();
  if (word && CONTINUATION_WORDS.has(word)) return false;
  const stop = Math.max(...['.', '!', '?', '。', '！', '？'].map((c) => line.lastIndexOf(c)));
  const sentence = line.slice(stop + 1);
  if (CLAUSE_RE.test(sentence)) return false;
  const before = text.slice(Math.max(0, text.length - sentence.length - 4000), text.length - sentence.length);
  return weight(sentence) <= 3 || !SENTENCE_STOP_RE.test(before);
}
