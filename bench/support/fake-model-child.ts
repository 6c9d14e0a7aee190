// Runs the scripted OpenAI-compatible server in its own process, so the model's side of each request does
// not use the event loop (or the CPU time) of the client being measured, as with a real remote model.
import { type Responder, startFakeOpenAI } from '../../tests/fakes/openai-server.js';
import { arithmeticResponder } from './arithmetic.js';
import type { FakeModelMessage, FakeModelOptions } from './fake-model.js';

const options = JSON.parse(process.argv[2] ?? '{}') as FakeModelOptions;
let served = 0;
const responder: Responder = (request) => {
  served++;
  const step = arithmeticResponder(request);
  return options.delayMs && 'content' in step ? { ...step, delayMs: options.delayMs } : step;
};
const fake = await startFakeOpenAI({ fallback: responder, chunkSize: options.chunkSize ?? 8 });

const send = (message: FakeModelMessage) => process.send?.(message);
process.on('message', (message: { type: 'served'; id: number }) => {
  if (message.type !== 'served') return;
  fake.requests.length = 0; // the recorded requests are not needed here; keep memory flat
  send({ type: 'served', id: message.id, served });
});
process.on('disconnect', () => {
  void fake.close().then(() => process.exit(0));
});
send({ type: 'ready', url: fake.url });
