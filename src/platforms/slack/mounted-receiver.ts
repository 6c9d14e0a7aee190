import type { App, HTTPReceiver, Receiver } from '@slack/bolt';
import type { HttpRoutes } from '../../server/http-server.js';

/** Where Slack sends events, interactions and slash commands in HTTP mode. */
export const SLACK_EVENTS_PATH = '/slack/events';

/**
 * A Bolt receiver that serves Bolt's stock HTTPReceiver (signature checks, retries, acks, body limits) on
 * the process's shared HTTP server instead of a server of its own. Once stopped it answers 503, so Slack
 * retries the event on a replica that is still running.
 */
export function createMountedReceiver(inner: HTTPReceiver, http: HttpRoutes): Receiver {
  let open = false;
  http.mount('POST', SLACK_EVENTS_PATH, (req, res) => {
    if (!open) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'shutting down' }));
      return;
    }
    inner.requestListener(req, res);
  });
  return {
    init: (app: App) => inner.init(app),
    async start() {
      open = true;
    },
    async stop() {
      open = false;
    },
  };
}
