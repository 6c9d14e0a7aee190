import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Visitor } from './web-gate.js';

/** A web chat API request's context once let in. */
export interface ApiContext {
  visitor: Visitor;
  address: string;
}

/** A handler of the web chat's API, called once the request is let in. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, ctx: ApiContext) => Promise<void> | void;

/** Wraps a handler in the checks every API request passes (serving, host, origin, who asks). */
export type Api = (handler: ApiHandler) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;
