// A model that answers "say a lot" with one long text (anything else in a few words), streamed in small
// events, a few at a time, as fast as timers allow: hundreds of times faster than a real model, but in reads
// of the size a real stream arrives in. It runs in its own process so that producing the stream costs the
// measured process nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const { unit, chars, eventChars, eventsPerWrite } = JSON.parse(process.argv[2] ?? '{}') as {
  unit: string;
  chars: number;
  eventChars: number;
  eventsPerWrite: number;
};
const long = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

const server = createServer((req, res) => {
  const body: Buffer[] = [];
  req.on('data', (c: Buffer) => body.push(c));
  req.on('end', async () => {
    const request = JSON.parse(Buffer.concat(body).toString('utf8')) as { messages: { content: unknown }[] };
    const text = String(request.messages.at(-1)?.content).includes('say a lot') ? long : 'Fine, thanks.';
    const event = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'long', object: 'chat.completion.chunk', created: 0, model: 'long', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(event({ role: 'assistant', content: '' }));
    const step = eventChars * eventsPerWrite;
    for (let i = 0; i < text.length && !res.destroyed; i += step) {
      let batch = '';
      for (let j = i; j < Math.min(i + step, text.length); j += eventChars) {
        batch += event({ content: text.slice(j, j + eventChars) });
      }
      res.write(batch);
      await sleep(1);
    }
    res.write(event({}, 'stop'));
    res.write(
      `data: ${JSON.stringify({ id: 'long', object: 'chat.completion.chunk', created: 0, model: 'long', choices: [], usage: { prompt_tokens: 100, completion_tokens: Math.ceil(text.length / 4), total_tokens: 100 + Math.ceil(text.length / 4) } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
