/**
 * The line `npm start` prints once the web chat listens: its address, and when it is bound to every
 * interface (`0.0.0.0`, `::`) that it is, with the address that reaches it from this machine.
 */
export function webChatLine(host: string, port: number): string {
  if (port === 0) return 'thinkthread: web chat on the port the log names';
  if (host === '0.0.0.0' || host === '::') {
    return `thinkthread: web chat on every interface (${host === '::' ? '[::]' : host}:${port}); from this machine at http://127.0.0.1:${port}/`;
  }
  return `thinkthread: web chat at http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}
