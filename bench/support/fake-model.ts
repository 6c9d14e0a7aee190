import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Options of the scripted model process. */
export interface FakeModelOptions {
  /** Milliseconds before each reply (0: answer at once, so only client overhead is left). */
  delayMs?: number;
  /** Characters per streamed content chunk. */
  chunkSize?: number;
}

/** Messages from the model process. */
export type FakeModelMessage =
  | { type: 'ready'; url: string }
  | { type: 'served'; id: number; served: number };

/** The scripted model (arithmetic policy) running in a child process. */
export interface FakeModel {
  url: string;
  /** Chat completion requests served so far. */
  served(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the scripted OpenAI-compatible model in its own process and waits until it listens. */
export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./fake-model-child.ts', import.meta.url)),
    [JSON.stringify(options)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake model exited early (${code})`)));
    child.on('message', (m: FakeModelMessage) => {
      if (m.type === 'ready') resolve(m.url);
    });
  });
  let nextId = 0;
  return {
    url,
    served: () =>
      new Promise<number>((resolve) => {
        const id = ++nextId;
        const onMessage = (m: FakeModelMessage) => {
          if (m.type !== 'served' || m.id !== id) return;
          child.off('message', onMessage);
          resolve(m.served);
        };
        child.on('message', onMessage);
        child.send({ type: 'served', id });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
