/** Deterministic filler text for long scripted conversations (a seeded generator, no randomness between runs). */
const WORDS = (
  'project budget meeting deadline design review server latency database backup release schedule ' +
  'customer invoice report draft summary plan option cost risk test deploy branch feature issue ' +
  'monday tuesday friday morning evening week month quarter team lead vendor contract price ' +
  'kilometre metre hour minute percent growth forecast target metric dashboard alert incident ' +
  'recipe garden travel train flight hotel museum concert ticket weather rain sunny cold warm'
).split(' ');
const AUTHORS = ['alice', 'bob', 'chen', 'dana'];

/** A small seeded generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]!);
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turn `k` of the scripted conversation: who asks, the question (tagged `#k`) and the model's answer. */
export function scriptedTurn(k: number): { author: string; question: string; answer: string } {
  const next = generator(k * 7919 + 1);
  const questionWords = 8 + Math.floor(next() * 18);
  const answerWords = 40 + Math.floor(next() * 160);
  const parts: string[] = [];
  for (let left = answerWords; left > 0; left -= 12) parts.push(`${sentence(next, Math.min(12, left))}.`);
  return {
    author: AUTHORS[k % AUTHORS.length]!,
    question: `#${k} ${sentence(next, questionWords)}?`,
    answer: `Answer #${k}: ${parts.join(' ')}`,
  };
}

/** Turn `k` of a quick terminal chat: a short question (tagged `#k`) and a short answer. */
export function shortTurn(k: number): { author: string; question: string; answer: string } {
  const next = generator(k * 104_729 + 7);
  return {
    author: AUTHORS[k % AUTHORS.length]!,
    question: `#${k} ${sentence(next, 6 + Math.floor(next() * 8))}?`,
    answer: `Answer #${k}: ${sentence(next, 10 + Math.floor(next() * 12))}. ${sentence(next, 8 + Math.floor(next() * 10))}.`,
  };
}
