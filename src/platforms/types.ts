import type { Config } from '../config.js';
import type { Assistant } from '../core/assistant.js';
import type { ThreadFollows } from '../core/follow/thread-follows.js';
import type { Logger, SecretPattern } from '../core/logger.js';
import type { RunQueue } from '../core/ports/run-queue.js';
import type { SystemRunDelivery } from '../core/ports/system-run-delivery.js';
import type { WebChatStore } from '../core/ports/web-chat-store.js';
import type { ChannelKnowledge } from '../knowledge/channel-knowledge.js';
import type { KnowledgeIndexer } from '../knowledge/knowledge-indexer.js';
import type { HttpRoutes } from '../server/http-server.js';
import type { ShardLeases } from './shard-leases.js';

/** Whether a platform is connected and taking questions; `reason` says why not. */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A chat platform connection (terminal, Discord, Slack, …) driving the Assistant. */
export interface PlatformAdapter {
  readonly name: string;
  /** Connects and starts handling messages; resolves once ready. */
  start(): Promise<void>;
  /**
   * Stops taking questions, lets answers in flight finish for SHUTDOWN_GRACE_MS, cancels the rest (each
   * says so where its answer would have been) and disconnects.
   */
  stop(): Promise<void>;
  /** For GET /readyz. */
  readiness(): Readiness;
  /** Starts runs nobody just asked for (schedules, runs going on after a restart); absent where it cannot. */
  readonly systemRuns?: SystemRunDelivery | undefined;
}

/** What a platform is built from. */
export interface PlatformDeps {
  config: Config;
  assistant: Assistant;
  logger: Logger;
  /** The process's one HTTP server, for platforms that receive requests (Slack's HTTP mode). */
  http: HttpRoutes;
  /** Counts a platform API call answered 429 (metrics), when metrics are on. */
  rateLimited?: ((platform: string) => void) | undefined;
  /** The assistant's line of questions: deliveries are admitted once, in arrival order (shared by replicas). */
  line?: RunQueue | undefined;
  /** The bot's database, for what a platform keeps itself (the web chat's conversations and their steps). */
  store?: WebChatStore | undefined;
  /** KNOWLEDGE_DIR's indexer, for the admin page's Knowledge tab (re-index); unset without KNOWLEDGE_DIR. */
  knowledgeBase?: KnowledgeIndexer | undefined;
  /** Where files read in a channel are kept for its `search_knowledge`; unset: they are not kept. */
  knowledge?: ChannelKnowledge | undefined;
  /** Threads the bot answered in, whose follow-ups need no mention; unset: only mentions are answered. */
  follows?: ThreadFollows | undefined;
  /** Discord shard leases shared by replicas; unset for one process (no election). */
  shards?: ShardLeases | undefined;
}

/** One entry of the platform registry: adding a platform is a folder plus one of these. */
export interface PlatformEntry {
  readonly name: string;
  /** Whether this configuration turns the platform on. */
  enabled(config: Config): boolean;
  /** Whether, so configured, it receives requests on the shared HTTP server. */
  needsHttp(config: Config): boolean;
  /** Builds the adapter; the platform's library is loaded only here, so unused platforms cost nothing. */
  create(deps: PlatformDeps): Promise<PlatformAdapter>;
  /** Credentials its API carries in URLs (logged errors name the URL): scrubbed from every log line. */
  readonly secretPatterns?: readonly SecretPattern[];
}
