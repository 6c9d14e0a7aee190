/**
 * An answer that is only a plan: every sentence of it says which step the model means to take next ("I need to
 * search again.", "Thought: I should look up the owner.", "需要查询杭州今天的天气，因此可以使用天气工具来获取相关信息。")
 * and none gives the asker anything. A sentence that tells or asks the asker something ("I need to tell you…",
 * "I need to know which city you mean", "I couldn't find it") is an answer, and so is a reply holding one.
 */

/** The reminder's reason for such an answer. */
export const PLAN_ONLY_REASON = 'Final Answer only says what to do next; take that step or give the answer';

/** A `Thought:` label the model put inside its answer. */
const THOUGHT_LABEL_RE = /^(?:\*\*)?(?:Thought|思考)(?:[ \t]{0,3}\d{1,3})?(?:\*\*)?[ \t]{0,3}[:：][ \t]*/i;

/** Verbs of a step an agent takes (search, look up, use a tool…), not of telling or asking the asker. */
const STEP_VERBS =
  'search|look|find|check|use|call|query|calculate|compute|fetch|get|retrieve|gather|try|research|verify|consult|browse|read|run|execute|reflect|rethink|reconsider|refine|rephrase|reformulate|investigate|determine|figure|identify|obtain|collect|explore|access|visit|perform|proceed|continue|google|think|narrow|dig|re-?search|re-?check|re-?try';

/**
 * "I need to search…", "Let me check…", "The next step is to look up…". Only in the first person singular: "we
 * should use…" is as often advice to the asker.
 */
const EN_STEP_RE = new RegExp(
  `^(?:(?:ok(?:ay)?|so|now|next|then|first|instead|again|therefore|thus)[,]?[ \\t]{1,3}){0,3}(?:I(?:[ \\t]{1,3}(?:will|shall|should|must|need to|have to|am going to|would need to)|'ll|'m going to|'d need to)|let(?:[ \\t]{1,3}(?:me|us)|'s)|(?:the[ \\t]{1,3})?next step is to)[ \\t]{1,3}(?:(?:now|first|then|also|still|instead|again|try to|first try to)[ \\t]{1,3}){0,2}(?:${STEP_VERBS})\\b`,
  'i',
);

/** The same in Chinese: (我)需要/应该/可以 + 查询/搜索/使用…, or 我 + such a verb. */
const ZH_STEP_RE =
  /^(?:因此|所以|那么|首先|接下来|下一步)?[，,]?(?:(?:我们?)?(?:需要|应该|应当|要|将|会|必须|可以|得|准备|打算)|我们?)(?:先|再|首先|继续|去)?(?:使用|调用|利用|用|查询|搜索|查找|检索|查一下|搜一下|查看|获取|计算|寻找)/;

/** Sentence ends and line breaks. */
const SENTENCE_SPLIT_RE = /(?<=[.!?。！？])[ \t]*|\n+/;

/** Longest answer read for a plan: a plan is a sentence or three, not an essay. */
const MAX_CHARS = 600;

/** Whether one sentence says which step comes next. */
function isStepSentence(s: string): boolean {
  return EN_STEP_RE.test(s) || ZH_STEP_RE.test(s);
}

/** Whether a final answer's text is only a plan of the next step, with no answer in it. */
export function isPlanOnly(answer: string): boolean {
  const text = answer.trim();
  if (!text || text.length > MAX_CHARS) return false;
  const sentences = text
    .split(SENTENCE_SPLIT_RE)
    .map((p) =>
      p
        .replace(/^[\s*_#>-]+/, '')
        .replace(THOUGHT_LABEL_RE, '')
        .trim(),
    )
    .filter(Boolean);
  return sentences.length > 0 && sentences.every(isStepSentence);
}
