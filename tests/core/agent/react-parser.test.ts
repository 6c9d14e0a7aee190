import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { finalAnswerStart, parseReactOutput, type ReactStep } from '../../../src/core/agent/react-parser.js';

const TOOLS = [
  'calculator',
  'web_search',
  'read_file',
  'get_current_time',
  'fetch_url',
  'run_python',
] as const;
const FIXTURE_DIR = new URL('../../fixtures/react-outputs/', import.meta.url);

function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURE_DIR), 'utf8');
}

function parse(text: string): ReactStep {
  return parseReactOutput(text, TOOLS);
}

const call = (tool: string, input: Record<string, unknown> | string, thought?: string): ReactStep => ({
  kind: 'action',
  thought,
  tool,
  input,
});
const answer = (text: string, thought?: string): ReactStep => ({ kind: 'final', thought, answer: text });
const remind = (reason: string, thought?: string): ReactStep => ({ kind: 'invalid', thought, reason });

/** What the agent does with a step, in words (for test names and failure messages). */
function agentDoes(step: ReactStep): string {
  if (step.kind === 'action') return `calls ${step.tool} with ${JSON.stringify(step.input)}`;
  if (step.kind === 'final') return `answers ${JSON.stringify(step.answer.slice(0, 40))}`;
  return `reminds the model of the format (${step.reason})`;
}

// ---------------------------------------------------------------------------------------------------------
// Real-looking multi-line outputs, one per file in tests/fixtures/react-outputs/
// ---------------------------------------------------------------------------------------------------------

const fixtureExpectations: Record<string, ReactStep> = {
  'gpt-4o-mini-action.txt': call(
    'calculator',
    { expression: '0.17 * 2340' },
    "The user wants to know what 17% of 2,340 is. I'll use the calculator to get an exact result.",
  ),
  'gpt-4o-mini-final-markdown.txt': answer(
    'Here are the three largest cities in Japan by population:\n\n' +
      '1. **Tokyo** – about 14 million (city proper)\n' +
      '2. **Yokohama** – about 3.7 million\n' +
      '3. **Osaka** – about 2.7 million\n\n' +
      '> Figures are approximate and based on the latest census estimates.',
    'I have the population figures from the search results, so I can answer now.',
  ),
  'gpt-4o-mini-fenced-input.txt': call(
    'web_search',
    { query: 'Node.js 22 release notes', max_results: 5 },
    'I should search the web for the latest release notes of Node.js 22.',
  ),
  'gpt-4o-mini-whole-reply-fenced.txt': answer(
    '12 × 12 = 144.',
    'The question is simple arithmetic, I know the answer already.',
  ),
  'gpt-4o-mini-multiline-thought.txt': call(
    'get_current_time',
    { timezone: 'America/New_York' },
    'The user wants two things:\n- the current time in New York\n- how many hours until midnight there\n' +
      'I will first get the current time.',
  ),
  'llama3-hallucinated-observation.txt': call(
    'web_search',
    { query: 'current weather Paris' },
    'I need to find the current weather in Paris.',
  ),
  'llama3-bold-labels.txt': call(
    'read_file',
    { path: 'notes.txt' },
    'The user asked for the contents of notes.txt, so I need to read that file first.',
  ),
  'llama3-bold-final.txt': answer(
    '17% of 2,340 is **397.8**.',
    'The calculator returned 397.8, which answers the question.',
  ),
  'llama3-inline-action-input.txt': call(
    'web_search',
    { query: 'USD to EUR exchange rate today' },
    'I will look up the exchange rate.',
  ),
  // Unlabelled prose that answers is the answer (issue 17): no reminder round trip.
  'llama3-no-format.txt': answer(
    'The capital of Australia is Canberra, not Sydney as many people assume. It was purpose-built\n' +
      'as a compromise between Sydney and Melbourne and became the capital in 1913.',
  ),
  'llama3-thought-then-prose.txt': remind(
    'no Action or Final Answer found',
    'I know this one without using any tools.\n\n' +
      'The speed of light in a vacuum is exactly 299,792,458 metres per second.',
  ),
  'llama3-python-call.txt': call(
    'calculator',
    { expression: '1000 * (1 + 0.05) ^ 10' },
    'Let me compute the compound interest.',
  ),
  'qwen-chinese-labels.txt': call(
    'web_search',
    { query: '北京 明天 天气预报' },
    '用户想知道北京明天的天气，我需要搜索一下。',
  ),
  'qwen-chinese-final.txt': answer(
    '北京明天多云转晴，气温 12°C 到 24°C，北风 3 级。\n\n出门记得带件外套！',
    '搜索结果已经给出了答案，可以直接回复用户。',
  ),
  'qwen-python-dict-input.txt': call(
    'fetch_url',
    { url: 'https://example.com/blog/post-1', max_chars: 4000, include_links: false },
    'I need to fetch the page to summarise it.',
  ),
  'deepseek-r1-think-final.txt': answer('2¹⁰ = 1024.', 'This is simple mental arithmetic.'),
  'deepseek-r1-think-action.txt': call(
    'get_current_time',
    { timezone: 'Asia/Tokyo' },
    "The user wants today's date and time in Tokyo. I don't know the current time, so I must call the time tool.",
  ),
  'deepseek-missing-open-think.txt': call(
    'calculator',
    { expression: 'sqrt(1764)' },
    'Use the calculator for the square root.',
  ),
  'mistral-numbered-steps.txt': call(
    'read_file',
    { path: 'config/server.json' },
    'I need to read the configuration file to see which port is used.',
  ),
  'phi3-uppercase-labels.txt': call(
    'web_search',
    { query: 'author of The Left Hand of Darkness' },
    'I SHOULD SEARCH FOR THE AUTHOR OF THE BOOK.',
  ),
  'gemma-heading-final.txt': answer(
    'The file `notes.txt` contains three TODO items:\n\n- buy milk\n- call the bank\n- renew passport',
    'I have everything I need from the file contents.',
  ),
  'langchain-json-blob.txt': call(
    'web_search',
    { query: 'who won the 2022 FIFA World Cup' },
    'I need to search for this.',
  ),
  'langchain-json-blob-final.txt': answer(
    'Argentina won the 2022 FIFA World Cup, beating France on penalties.',
  ),
  'final-answer-explains-react.txt': answer(
    'Each step I write looks like this:\n\n```\nThought: what I am thinking\nAction: the tool to use\n' +
      'Action Input: {"arg": "value"}\n```\n\n' +
      'After the tool runs I receive an Observation and continue until I write the final answer.',
    'The user asked how my output format works, I can explain it directly.',
  ),
  'run-python-code-input.txt': call(
    'run_python',
    'text = open("essay.txt").read()\nwords = text.split()\nprint("Answer: ", len(words))',
    "I'll run a short script to count the words.",
  ),
  'trailing-prose-after-json.txt': call(
    'calculator',
    { expression: '(98.6 - 32) * 5 / 9' },
    'Let me convert the temperature.',
  ),
  'answer-synonym.txt': answer('The file has 42 lines.', 'The observation shows the file has 42 lines.'),
  'action-none-then-final.txt': answer(
    'Hello! How can I help you today?',
    'No tool is needed for a greeting.',
  ),
  'unknown-tool.txt': call(
    'google_search',
    { q: 'best hiking trails near Zurich' },
    'I should search Google for this.',
  ),
  'truncated-json.txt': call(
    'web_search',
    { query: 'vegan lasagna recipe', max_results: 3 },
    'Search for the recipe.',
  ),
  'bold-whole-line-final.txt': answer(
    'The Eiffel Tower is 330 metres tall.',
    'I have the answer from the search.',
  ),
  'react-paper-style.txt': call(
    'web_search',
    'Colorado orogeny eastern sector',
    'I need to search Colorado orogeny and find the area that its eastern sector extends into.',
  ),
  'repeated-observation-first.txt': answer('397.8', 'The calculator gave 397.8, which is the answer.'),
  'windows-crlf.txt': answer('Hi there!\nHow can I help?', 'The user said hello.'),
  'fullwidth-colons-mixed.txt': call('read_file', { path: 'README.md' }, 'The user wants the file listing.'),
};

describe('parseReactOutput on collected model outputs (fixtures)', () => {
  it('has an expectation for every fixture file and a file for every expectation', () => {
    const files = readdirSync(FIXTURE_DIR)
      .filter((f) => f.endsWith('.txt'))
      .sort();
    expect(files).toEqual(Object.keys(fixtureExpectations).sort());
  });

  for (const [file, expected] of Object.entries(fixtureExpectations)) {
    it(`${file}: the agent ${agentDoes(expected)}`, () => {
      expect(parse(fixture(file))).toEqual(expected);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Short cases, one forgiven form each
// ---------------------------------------------------------------------------------------------------------

type Case = [name: string, text: string, expected: ReactStep];

const actionCases: Case[] = [
  [
    'canonical protocol',
    'Thought: need math\nAction: calculator\nAction Input: {"expression": "2+2"}',
    call('calculator', { expression: '2+2' }, 'need math'),
  ],
  [
    'bold labels with the closer after the colon',
    '**Thought:** need math\n**Action:** calculator\n**Action Input:** {"expression": "2+2"}',
    call('calculator', { expression: '2+2' }, 'need math'),
  ],
  [
    'bold labels with the closer before the colon',
    '**Thought**: need math\n**Action**: calculator\n**Action Input**: {"expression": "2+2"}',
    call('calculator', { expression: '2+2' }, 'need math'),
  ],
  [
    'lower-case labels and extra spaces',
    'thought:   need math  \naction :  calculator\naction input:   {"expression":"2+2"}   ',
    call('calculator', { expression: '2+2' }, 'need math'),
  ],
  [
    'Action_Input spelled with an underscore',
    'Thought: x\nAction: calculator\nAction_Input: {"expression": "1"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'full-width colons',
    'Thought：算一下\nAction：calculator\nAction Input：{"expression": "3*3"}',
    call('calculator', { expression: '3*3' }, '算一下'),
  ],
  [
    'Chinese labels',
    '思考：需要计算\n行动：calculator\n行动输入：{"expression": "6*7"}',
    call('calculator', { expression: '6*7' }, '需要计算'),
  ],
  [
    'leading and trailing blank lines, indentation',
    '\n\n   Thought: x\n   Action: calculator\n   Action Input: {"expression": "1"}\n\n\n',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'markdown list bullets',
    '- **Thought:** x\n- **Action:** calculator\n- **Action Input:** {"expression": "1"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'Step prefixes',
    'Step 1: Thought: x\nStep 2: Action: calculator\nStep 3: Action Input: {"expression": "1"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'no Thought: the text before the first label is the thought',
    'I need to add these numbers.\nAction: calculator\nAction Input: {"expression": "1+1"}',
    call('calculator', { expression: '1+1' }, 'I need to add these numbers.'),
  ],
  ['no Thought and nothing before the Action', 'Action: get_current_time', call('get_current_time', {})],
  [
    'Action Input on the same line after a comma',
    'Thought: x\nAction: calculator, Action Input: {"expression": "5-1"}',
    call('calculator', { expression: '5-1' }, 'x'),
  ],
  [
    'Action Input before the Action',
    'Thought: x\nAction Input: {"expression": "1"}\nAction: calculator',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'the input on the line after the Action, without a label',
    'Thought: x\nAction: calculator\n{"expression": "9/3"}',
    call('calculator', { expression: '9/3' }, 'x'),
  ],
  [
    'Tool: / Tool Input: labels',
    'Thought: x\nTool: calculator\nTool Input: {"expression": "1"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'labels in a blockquote',
    '> Thought: x\n> Action: calculator\n> Action Input: {"expression": "1"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'the tool name and input on the lines after empty labels',
    'Thought: x\n\nAction:\nweb_search\n\nAction Input:\n{"query": "q"}',
    call('web_search', { query: 'q' }, 'x'),
  ],
  [
    'a whole reply wrapped in a code fence, with a plain-text input',
    '```\nThought: x\nAction: calculator\nAction Input: 2+2\n```',
    call('calculator', '2+2', 'x'),
  ],
  [
    'a leaked tool call object on the Action line',
    'Thought: x\nAction: {"name": "calculator", "arguments": "{\\"expression\\": \\"1\\"}"}',
    call('calculator', { expression: '1' }, 'x'),
  ],
  [
    'simonw-style PAUSE after the input',
    'Thought: x\nAction: calculator: 4 * 7 / 3\nPAUSE',
    call('calculator', '4 * 7 / 3', 'x'),
  ],
  [
    'two actions in one reply: only the first is taken',
    'Action: calculator\nAction Input: {"expression": "1"}\nAction: web_search\nAction Input: {"query": "x"}',
    call('calculator', { expression: '1' }),
  ],
  [
    'a tool tag closer in a <tool> style name',
    'Thought: x\nAction: <read_file>\nAction Input: {"path": "a.txt"}',
    call('read_file', { path: 'a.txt' }, 'x'),
  ],
];

const toolNameCases: Case[] = [
  ['other casing', 'Action: Calculator\nAction Input: {}', call('calculator', {})],
  ['backticks', 'Action: `web_search`\nAction Input: {"query": "q"}', call('web_search', { query: 'q' })],
  ['double quotes', 'Action: "web_search"\nAction Input: {"query": "q"}', call('web_search', { query: 'q' })],
  ['bold name', 'Action: **web_search**\nAction Input: {"query": "q"}', call('web_search', { query: 'q' })],
  [
    'square brackets',
    'Action: [web_search]\nAction Input: {"query": "q"}',
    call('web_search', { query: 'q' }),
  ],
  [
    'trailing full stop',
    'Action: web_search.\nAction Input: {"query": "q"}',
    call('web_search', { query: 'q' }),
  ],
  ['trailing ()', 'Action: get_current_time()', call('get_current_time', {})],
  [
    'namespaced functions.calculator',
    'Action: functions.calculator\nAction Input: {"expression": "1"}',
    call('calculator', { expression: '1' }),
  ],
  [
    'hyphen instead of underscore',
    'Action: read-file\nAction Input: {"path": "a"}',
    call('read_file', { path: 'a' }),
  ],
  [
    'spaces instead of underscore',
    'Action: Web Search\nAction Input: {"query": "q"}',
    call('web_search', { query: 'q' }),
  ],
  ['camelCase', 'Action: getCurrentTime\nAction Input: {}', call('get_current_time', {})],
  [
    'a sentence that names one tool',
    'Action: I will use the calculator tool\nAction Input: {"expression": "2"}',
    call('calculator', { expression: '2' }),
  ],
  [
    'an unknown tool is passed through as written, for the agent to report',
    'Action:  wikipedia_lookup \nAction Input: {"title": "Ada Lovelace"}',
    call('wikipedia_lookup', { title: 'Ada Lovelace' }),
  ],
];

const inputCases: Case[] = [
  [
    'numbered `Action 2 Input:`',
    'Action 2: calculator\nAction 2 Input: {"expression": "1"}',
    call('calculator', { expression: '1' }),
  ],
  [
    'a space before the call brackets',
    'Action: calculator ({"expression": "1"})',
    call('calculator', { expression: '1' }),
  ],
  [
    'a JSON action in a ~~~ fence after Action:',
    'Action:\n~~~\n{"action": "calculator", "action_input": {"expression": "1"}}\n~~~',
    call('calculator', { expression: '1' }),
  ],
  [
    'a stop word cut part-way',
    'Action: web_search\nAction Input: Paris\nObserv',
    call('web_search', 'Paris'),
  ],
  [
    'the prompt template on the Action line, the call in the input',
    'Action: the action to take, should be one of [calculator, web_search]\nAction Input: web_search("x")',
    call('web_search', 'x'),
  ],
  ['`tool: args` on the Action line', 'Thought: x\nAction: calculator: 2+2', call('calculator', '2+2', 'x')],
  ['`tool("args")` call syntax', 'Thought: x\nAction: calculator("2+2")', call('calculator', '2+2', 'x')],
  ["`tool('args')` with single quotes", "Action: read_file('notes.txt')", call('read_file', 'notes.txt')],
  [
    'keyword arguments',
    'Action: read_file(path="notes.txt", limit=10)',
    call('read_file', { path: 'notes.txt', limit: 10 }),
  ],
  [
    'a JSON object in the call',
    'Action: calculator({"expression": "2+2"})',
    call('calculator', { expression: '2+2' }),
  ],
  ['ReAct-paper brackets', 'Action: web_search[Ada Lovelace]', call('web_search', 'Ada Lovelace')],
  ['a plain-text Action Input', 'Action: calculator\nAction Input: 2+2', call('calculator', '2+2')],
  ['a JSON string literal', 'Action: web_search\nAction Input: "Paris"', call('web_search', 'Paris')],
  ['a single-quoted string', "Action: web_search\nAction Input: 'Paris'", call('web_search', 'Paris')],
  [
    'a JSON object encoded as a string',
    'Action: calculator\nAction Input: "{\\"expression\\": \\"2+2\\"}"',
    call('calculator', { expression: '2+2' }),
  ],
  ['an empty Action Input', 'Action: get_current_time\nAction Input:', call('get_current_time', {})],
  ['Action Input: None', 'Action: get_current_time\nAction Input: None', call('get_current_time', {})],
  ['Action Input: {}', 'Action: get_current_time\nAction Input: {}', call('get_current_time', {})],
  [
    'single quotes and a trailing comma',
    "Action: calculator\nAction Input: {'expression': '2+2',}",
    call('calculator', { expression: '2+2' }),
  ],
  [
    'unquoted keys and Python booleans',
    'Action: fetch_url\nAction Input: {url: "https://a.example", raw: True, limit: None}',
    call('fetch_url', { url: 'https://a.example', raw: true, limit: null }),
  ],
  [
    'a raw newline inside a string value',
    'Action: run_python\nAction Input: {"code": "print(1)\nprint(2)"}',
    call('run_python', { code: 'print(1)\nprint(2)' }),
  ],
  [
    'single-line json fence',
    'Action: calculator\nAction Input: ```json {"expression": "1"}```',
    call('calculator', { expression: '1' }),
  ],
  [
    'inline backticks',
    'Action: calculator\nAction Input: `{"expression": "1"}`',
    call('calculator', { expression: '1' }),
  ],
  [
    'text after the JSON on the same line',
    'Action: calculator\nAction Input: {"expression": "1"} (this adds nothing)',
    call('calculator', { expression: '1' }),
  ],
  [
    'a made-up Observation on the same line as a raw input',
    'Action: calculator\nAction Input: 7*6 Observation: 42',
    call('calculator', '7*6'),
  ],
  [
    'keys like `thought:` inside a multi-line input are not labels',
    'Action: fetch_url\nAction Input: {\n  url: "https://a.example",\n  thought: "why",\n}',
    call('fetch_url', { url: 'https://a.example', thought: 'why' }),
  ],
  ['a JSON array is kept as text', 'Action: calculator\nAction Input: [1, 2]', call('calculator', '[1, 2]')],
  [
    'broken JSON beyond repair is passed as text for the tool to reject',
    'Action: calculator\nAction Input: {"expression": 2+2}',
    call('calculator', '{"expression": 2+2}'),
  ],
];

const finalCases: Case[] = [
  [
    'unlabelled prose that answers',
    'The capital of France is Paris.',
    answer('The capital of France is Paris.'),
  ],
  ['Finish[…] of the ReAct paper', 'Thought 3: done.\nAction 3: Finish[Paris]', answer('Paris', 'done.')],
  [
    'a made-up next Question ends the answer',
    'Final Answer: Paris.\nQuestion: and Spain?\nThought: search',
    answer('Paris.'),
  ],
  ['<think> then prose', '<think>easy</think>\nParis.', answer('Paris.', 'easy')],
  ['canonical final answer', 'Thought: x\nFinal Answer: Paris', answer('Paris', 'x')],
  ['FINAL ANSWER in capitals', 'THOUGHT: X\nFINAL ANSWER: PARIS', answer('PARIS', 'X')],
  ['final answer on the Thought line', 'Thought: easy. Final Answer: 4', answer('4', 'easy.')],
  ['Answer: as a synonym', 'Thought: x\nAnswer: Paris', answer('Paris', 'x')],
  ['Chinese label', '思考：很简单\n最终答案：巴黎', answer('巴黎', '很简单')],
  ['Final Answer with no Thought', 'Final Answer: Paris', answer('Paris')],
  [
    'bold label, closer glued to the colon, answer starts with bold',
    '**Final Answer:** **Paris** is the capital.',
    answer('**Paris** is the capital.'),
  ],
  ['bold around the whole line', '**Final Answer: Paris**', answer('Paris')],
  [
    'the answer keeps its internal formatting',
    'Final Answer:\n\n# Title\n\n```js\nconst a = 1;\n```\n\n  - item\n',
    answer('# Title\n\n```js\nconst a = 1;\n```\n\n  - item'),
  ],
  [
    'an answer that quotes the protocol stays an answer',
    'Thought: explain\nFinal Answer: I write lines like\nAction: tool\nAction Input: {}',
    answer('I write lines like\nAction: tool\nAction Input: {}', 'explain'),
  ],
  ['Action: Final Answer (LangChain habit)', 'Action: Final Answer\nAction Input: "Paris"', answer('Paris')],
  [
    'Action: None followed by a Final Answer',
    'Thought: x\nAction: None\nFinal Answer: hi',
    answer('hi', 'x'),
  ],
];

const orderCases: Case[] = [
  [
    'Action before a made-up Observation and Final Answer: the action wins',
    'Thought: a\nAction: calculator\nAction Input: {"expression": "1"}\nObservation: 1\nThought: b\nFinal Answer: 1',
    call('calculator', { expression: '1' }, 'a'),
  ],
  [
    'Final Answer before an Action: the answer wins, and ends where the Action naming a tool begins',
    'Thought: a\nFinal Answer: done\nAction: calculator',
    answer('done', 'a'),
  ],
  [
    'a stray `Input:` line in a Thought does not block the Final Answer',
    'Thought: restating.\nInput: the user asks for X\nFinal Answer: X',
    answer('X', 'restating.'),
  ],
  [
    'a capitalised "Action:" mid-sentence in a Thought is not a label',
    'Thought: I will check the Action: plan first\nFinal Answer: ok',
    answer('ok', 'I will check the Action: plan first'),
  ],
  [
    'an echoed Observation before the Thought is ignored',
    'Observation: 42\nThought: got it\nFinal Answer: 42',
    answer('42', 'got it'),
  ],
  [
    'the nearest Thought before the Action is the thought',
    'Thought: first\nObservation: x\nThought: second\nAction: calculator\nAction Input: {}',
    call('calculator', {}, 'second'),
  ],
  [
    'a <think> block is not parsed, and is the thought when there is no other',
    '<think>Maybe Final Answer: 3?\nAction: nope</think>\nAction: calculator\nAction Input: {"expression": "1+2"}',
    call('calculator', { expression: '1+2' }, 'Maybe Final Answer: 3?\nAction: nope'),
  ],
];

const invalidCases: Case[] = [
  ['empty text', '', remind('empty reply')],
  ['whitespace only', '  \n\t\n', remind('empty reply')],
  ['prose that only narrates a plan', 'I will now search for it.', remind('no Action or Final Answer found')],
  ['prose cut mid-sentence', 'The capital of France is', remind('no Action or Final Answer found')],
  [
    'Thought followed by prose',
    'Thought: I know this.\nThe answer is Paris.',
    remind('no Action or Final Answer found', 'I know this.\nThe answer is Paris.'),
  ],
  ['Thought only', 'Thought: let me think', remind('no Action or Final Answer found', 'let me think')],
  [
    'Action with no tool name',
    'Thought: x\nAction:\nAction Input: {}',
    remind('Action has no tool name', 'x'),
  ],
  ['Action: None and nothing else', 'Thought: x\nAction: None', remind('Action has no tool name', 'x')],
  ['empty Final Answer', 'Thought: x\nFinal Answer:   ', remind('Final Answer is empty', 'x')],
  [
    'Action Input without an Action',
    'Thought: x\nAction Input: {"a": 1}',
    remind('Action Input without an Action', 'x'),
  ],
  [
    'an unclosed <think> (cut off while reasoning)',
    '<think>\nThe user wants... Final Answer: maybe',
    remind('no Action or Final Answer found', 'The user wants... Final Answer: maybe'),
  ],
  [
    'lower-case "final answer:" inside prose is not a label',
    'Thought: the final answer: unclear',
    remind('no Action or Final Answer found', 'the final answer: unclear'),
  ],
];

describe.each([
  ['actions', actionCases],
  ['tool names are canonicalised', toolNameCases],
  ['tool inputs', inputCases],
  ['final answers', finalCases],
  ['the first of Action / Final Answer wins', orderCases],
  ['replies the agent answers with a format reminder', invalidCases],
] as const)('parseReactOutput: %s', (_group, cases) => {
  it.each(cases.map(([name, text, expected]) => [name, agentDoes(expected), text, expected] as const))(
    '%s → the agent %s',
    (_name, _does, text, expected) => {
      expect(parse(text)).toEqual(expected);
    },
  );
});

describe('parseReactOutput details', () => {
  it('treats Windows newlines like Unix ones', () => {
    const unix = 'Thought: a\nAction: calculator\nAction Input: {"expression": "1"}';
    expect(parse(unix.replaceAll('\n', '\r\n'))).toEqual(parse(unix));
  });

  it('matches the exact tool name before a case-insensitive one', () => {
    expect(parseReactOutput('Action: Search', ['search', 'Search'])).toEqual(call('Search', {}));
    expect(parseReactOutput('Action: SEARCH', ['search', 'Search'])).toEqual(call('search', {}));
  });

  it('treats a real tool called final_answer as a tool', () => {
    expect(parseReactOutput('Action: final_answer\nAction Input: {"text": "hi"}', ['final_answer'])).toEqual(
      call('final_answer', { text: 'hi' }),
    );
  });

  it('gives reasons short enough for a reminder', () => {
    const reasons = invalidCases
      .map(([, t]) => parse(t))
      .filter((s): s is Extract<ReactStep, { kind: 'invalid' }> => s.kind === 'invalid')
      .map((s) => s.reason);
    for (const reason of reasons) expect(reason.length).toBeLessThan(60);
  });

  it('stays fast on 200k-character adversarial replies', () => {
    const n = 200_000;
    const inputs = [
      'lorem ipsum dolor sit amet, '.repeat(n / 28),
      `Thought:${' '.repeat(n)}x`,
      `Thought: ${'x'.repeat(n)}\nAction: ${'y'.repeat(n)}`,
      `Action: calculator\nAction Input: ${'{'.repeat(n)}`,
      `Action: calculator\nAction Input: ${'{"a":'.repeat(n / 5)}1${'}'.repeat(n / 5)}`,
      `Action: calculator${'('.repeat(n)}`,
      'Action Input: {\n'.repeat(n / 16),
      'Thought: a Action Input: b Observation: '.repeat(n / 40),
      `Thought: ${'final     answer     '.repeat(n / 21)}`,
      '{\n'.repeat(n / 2),
      '<think>'.repeat(n / 7),
      '**'.repeat(n / 2),
      `Thought: x\nFinal Answer: ${'word '.repeat(n / 5)}`,
      `Action: calculator(${'a=1,'.repeat(n / 4)})`,
      `Action: a${'.'.repeat(n)}b`,
      '\r\n'.repeat(n / 2),
    ];
    const started = performance.now();
    for (const text of inputs) {
      parse(text);
      finalAnswerStart(text);
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

// ---------------------------------------------------------------------------------------------------------
// finalAnswerStart: streaming
// ---------------------------------------------------------------------------------------------------------

describe('finalAnswerStart on streamed prefixes', () => {
  const at = (text: string, needle: string): number => text.indexOf(needle);

  it.each([
    ['no text yet', '', -1],
    ['only a thought so far', 'Thought: x', -1],
    ['the label is incomplete', 'Thought: x\nFinal Ans', -1],
    ['the label has no colon yet', 'Thought: x\nFinal Answer', -1],
    ['the colon arrived but no text', 'Thought: x\nFinal Answer: ', -1],
    ['an Action came first', 'Thought: x\nAction: calculator\nFinal Answer: Hel', -1],
    ['the Action label is still arriving', 'Thought: x\nAction', -1],
    ['a bold closer is half-way through', '**Final Answer:*', -1],
    ['a bold closer arrived but no text', '**Final Answer:**', -1],
    ['the marker is inside an unfinished <think>', '<think>Final Answer: no', -1],
  ])('%s → -1 (nothing to stream)', (_name, text, expected) => {
    expect(finalAnswerStart(text)).toBe(expected);
  });

  it.each([
    ['a final answer has begun', 'Thought: x\nFinal Answer: Hel', 'Hel'],
    ['the answer starts on the next line', 'Thought: x\nFinal Answer:\n\nHel', 'Hel'],
    ['bold label', '**Thought:** x\n**Final Answer:** Hel', 'Hel'],
    ['answer starting with bold text', '**Final Answer:** **Hel', '**Hel'],
    ['no Thought', 'Final Answer: Hel', 'Hel'],
    ['Answer: synonym', 'Thought: x\nAnswer: Hel', 'Hel'],
    ['on the Thought line', 'Thought: easy. Final Answer: Hel', 'Hel'],
    ['Chinese label, full-width colon', '思考：好\n最终答案：你好', '你好'],
    ['Windows newlines', 'Thought: x\r\nFinal Answer:\r\nHel', 'Hel'],
    ['after a <think> block', '<think>Action: no</think>\nFinal Answer: Hel', 'Hel'],
    ['heading label', '## Final Answer\nHel', 'Hel'],
    ['a stray Action Input without an Action first', 'Action Input: {}\nFinal Answer: Hel', 'Hel'],
    ['an echoed Observation first', 'Observation: 3\nThought: x\nFinal Answer: Hel', 'Hel'],
  ])('%s → index of the answer text', (_name, text, needle) => {
    expect(finalAnswerStart(text)).toBe(at(text, needle));
  });

  const files = Object.keys(fixtureExpectations);

  it.each(files)('streaming %s: the start never moves and agrees with the parsed reply', (file) => {
    const text = fixture(file);
    const expected = fixtureExpectations[file]!;
    const full = finalAnswerStart(text);
    for (let len = 0; len <= text.length; len++) {
      const start = finalAnswerStart(text.slice(0, len));
      if (start !== -1) expect(start).toBe(full);
    }
    if (expected.kind === 'final') {
      if (full >= 0) {
        const streamed = text.slice(full).replaceAll('\r\n', '\n');
        expect(streamed.startsWith(expected.answer.slice(0, 10))).toBe(true);
      }
    } else {
      expect(full).toBe(-1);
    }
  });

  it('streams every label-based final answer fixture', () => {
    // Not streamed, only answered: a JSON blob has no label, and `Action: None` is an Action until parsed whole.
    const notStreamed = [
      'langchain-json-blob-final.txt',
      'action-none-then-final.txt',
      'llama3-no-format.txt',
    ];
    const streamable = files.filter(
      (f) => fixtureExpectations[f]!.kind === 'final' && !notStreamed.includes(f),
    );
    expect(streamable.length).toBeGreaterThan(5);
    for (const file of streamable) expect(finalAnswerStart(fixture(file)), file).toBeGreaterThanOrEqual(0);
  });
});

describe('parseReactOutput with tool schemas', () => {
  const tools = [
    {
      name: 'web_search',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
    {
      name: 'convert',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
        required: ['amount', 'from', 'to'],
      },
    },
  ];

  it('maps a plain-text input onto the single required field', () => {
    expect(parseReactOutput('Action: web_search\nAction Input: Paris', tools)).toEqual(
      call('web_search', { query: 'Paris' }),
    );
  });

  it('reminds the model of the fields when there are several', () => {
    expect(parseReactOutput('Action: convert\nAction Input: 100 USD in EUR', tools)).toEqual(
      remind('Action Input must be JSON with amount, from, to'),
    );
  });

  it('leaves broken JSON for the tool to reject', () => {
    expect(parseReactOutput('Action: convert\nAction Input: {"amount": 1, "fr', tools)).toMatchObject({
      kind: 'action',
      tool: 'convert',
    });
  });
});

describe('parseReactOutput: an unknown tool with a plain-text input', () => {
  it('keeps the input when it only mentions a known tool', () => {
    expect(parseReactOutput('Action: google\nAction Input: find it with web_search', TOOLS)).toEqual(
      call('google', 'find it with web_search'),
    );
  });
});
