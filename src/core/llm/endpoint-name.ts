/**
 * `model@host` (e.g. `qwen2.5@localhost:11434`, `gpt-4o-mini@api.openai.com`): how notices, logs and metrics
 * name a model endpoint. Only the host is kept, so no credentials, path or query of the URL show.
 */
export function endpointName(model: string, baseURL: string | undefined): string {
  let host = 'api.openai.com';
  if (baseURL !== undefined) {
    try {
      host = new URL(baseURL).host;
    } catch {
      host = 'invalid-url';
    }
  }
  return `${model}@${host}`;
}
