import type { TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import type { ApprovalRecord } from '../ports/approval-store.js';
import type { FeedbackStore, FeedbackTotals } from '../ports/feedback-store.js';
import {
  type BudgetRule,
  NO_USAGE,
  NOTHING_SPENT,
  type RateRule,
  type UsageResult,
  type UsageStore,
  type UsageTotals,
} from '../ports/usage-store.js';
import { type AccessDecision, type AccessPolicy, decideAccess, isAdmin } from './access-policy.js';
import type { Asker } from './asker.js';
import { bareEntries } from './principal.js';
import type { Rate } from './rate.js';
import { dayOf, formatClock, monthOf } from './zoned-time.js';

/** The one reply to an ask the access lists refuse. */
export const REFUSED_MESSAGE = 'You can’t use this bot here.';

/** Limits and budgets, named as in the configuration. */
export interface LimitSettings {
  RATE_LIMIT_USER: Rate | null;
  RATE_LIMIT_CHANNEL: Rate | null;
  TOKEN_BUDGET_USER_DAY: number;
  TOKEN_BUDGET_CHANNEL_DAY: number;
  TOKEN_BUDGET_DAY: number;
}

/** Everything governance is configured by. */
export interface GovernanceSettings {
  access: AccessPolicy;
  limits: LimitSettings;
  /** DEFAULT_TIMEZONE: budgets reset at its midnight; undefined is the system zone. */
  timeZone: string | undefined;
  /** USD per million prompt / completion tokens, for estimated costs. */
  prices: { input?: number | undefined; output?: number | undefined };
}

/** What the governor needs. */
export interface GovernorDeps {
  settings: GovernanceSettings;
  usage: UsageStore;
  /** Where votes on answers are kept, for the admins' `/usage`; none counted without it. */
  feedback?: FeedbackStore | undefined;
  /** Recorded with each run. */
  model: string;
  protocol: string;
  logger?: Logger | undefined;
  now?: () => number;
}

/** Whether a question was taken: its usage record's id, or the short reply saying when to ask again. */
export type Admit = { admitted: true; id: number; at: number } | { admitted: false; message: string };

/** A person's and a channel's usage, today and this month, for `/usage`. */
export interface UsageReport {
  you: { today: UsageTotals; month: UsageTotals };
  channel: { today: UsageTotals; month: UsageTotals };
  /** For admins: the top users and channels this month. */
  top?: { users: UsageTotals[]; channels: UsageTotals[] };
  /** For admins: votes on answers this month. */
  feedback?: FeedbackTotals;
  /** For admins: the latest decisions on tool calls that waited for approval (last 30 days). */
  approvals?: readonly ApprovalRecord[];
  /** USD per million tokens, when configured. */
  prices: GovernanceSettings['prices'];
}

/** Access, limits, budgets and the usage record, over the usage store. */
export interface Governor {
  /** Applies the access lists; a refusal is recorded and logged (IDs only, never the text). */
  access(asker: Asker, key: string): Promise<AccessDecision>;
  /**
   * Counts the question against its limits and budgets, atomically in the store; admins are never limited.
   * `run` names the model and protocol the channel's settings chose, when they differ from the defaults.
   */
  admit(asker: Asker, key: string, run?: { model: string; protocol: string }): Promise<Admit>;
  /** Whether the asker is an admin (ADMIN_USERS, or the platform says so). */
  isAdmin(asker: Asker): Promise<boolean>;
  /** Completes an admitted question's record. */
  complete(id: number, result: UsageResult): Promise<void>;
  /** Records a memory summary's tokens, billed to its channel. */
  summarized(key: string, usage: TokenUsage, model: string): Promise<void>;
  /** `/usage`: the asker's and the channel's usage; the top users and channels for admins. */
  report(asker: Asker, key: string): Promise<UsageReport>;
}

/** Creates the governor. */
export function createGovernor(deps: GovernorDeps): Governor {
  const { settings, usage, logger } = deps;
  const now = deps.now ?? (() => Date.now());
  const zone = settings.timeZone;
  const { access } = settings;
  const bare = bareEntries(access.ADMIN_USERS, access.ALLOW_USERS, access.BLOCK_USERS);
  if (bare.length > 0) {
    logger?.warn(
      { entries: bare.length },
      'ADMIN_USERS, ALLOW_USERS or BLOCK_USERS name people by bare IDs or slack:U… without a team, which match that user ID in any Slack team the bot meets (Slack Connect); prefer slack:T…:U… and discord:…',
    );
  }
  const start = (
    asker: Asker | null,
    key: string,
    at: number,
    run: { model: string; protocol: string } = deps,
  ) => ({
    at,
    platform: asker?.platform ?? key.split(':')[0] ?? 'unknown',
    key,
    userId: asker?.principal ?? null,
    origin: asker?.origin ?? null,
    model: run.model,
    protocol: run.protocol,
  });
  const rules = (asker: Asker, key: string, at: number) => {
    const { limits } = settings;
    const rates: RateRule[] = [];
    // The user's limits count the person and, when the platform names one, where they ask from.
    const people: RateRule['scope'][] = [
      { userId: asker.principal },
      ...(asker.origin ? [{ origin: asker.origin }] : []),
    ];
    if (limits.RATE_LIMIT_USER) {
      for (const scope of people) rates.push(rate('RATE_LIMIT_USER', scope, limits.RATE_LIMIT_USER));
    }
    if (limits.RATE_LIMIT_CHANNEL) rates.push(rate('RATE_LIMIT_CHANNEL', { key }, limits.RATE_LIMIT_CHANNEL));
    const day = dayOf(at, zone);
    const budget = (name: string, scope: BudgetRule['scope'], limit: number): BudgetRule[] =>
      limit > 0 ? [{ name, scope, limit, since: day.start, resetsAt: day.end }] : [];
    const budgets = [
      ...people.flatMap((scope) => budget('TOKEN_BUDGET_USER_DAY', scope, limits.TOKEN_BUDGET_USER_DAY)),
      ...budget('TOKEN_BUDGET_CHANNEL_DAY', { key }, limits.TOKEN_BUDGET_CHANNEL_DAY),
      ...budget('TOKEN_BUDGET_DAY', 'all', limits.TOKEN_BUDGET_DAY),
    ];
    return { rates, budgets };
  };

  const totals = async (query: { since: number; until: number; userId?: string; key?: string }) =>
    (await usage.totals({ ...query, by: 'none' }))[0] ?? { group: 'all', ...NO_USAGE };

  return {
    async access(asker, key) {
      const decision = await decideAccess(settings.access, asker);
      if (!decision.allowed) {
        logger?.info(
          {
            platform: asker.platform,
            user: asker.principal,
            origin: asker.origin,
            channel: asker.channelId,
            key,
            rule: decision.rule,
          },
          'refused a question',
        );
        try {
          await usage.record({ ...start(asker, key, now()), ...NOTHING_SPENT, outcome: 'refused' });
        } catch (err) {
          // The refusal stands; only its record is missing.
          logger?.warn({ err, key }, 'could not record a refusal');
        }
      }
      return decision;
    },
    isAdmin: (asker) => isAdmin(settings.access, asker),
    async admit(asker, key, run) {
      const admin = await isAdmin(settings.access, asker);
      const at = now();
      const admission = await usage.admit(
        start(asker, key, at, run),
        admin ? { rates: [], budgets: [] } : rules(asker, key, at),
      );
      if (admission.admitted) return { admitted: true, id: admission.id, at };
      logger?.info({ user: asker.principal, key, rule: admission.rule }, 'limited a question');
      return { admitted: false, message: limitedMessage(admission.rule, admission.retryAt, at, settings) };
    },
    complete: (id, result) => usage.complete(id, result),
    async summarized(key, spent, model) {
      await usage.record({
        ...start(null, key, now()),
        model,
        outcome: 'summary',
        modelCalls: 1,
        promptTokens: spent.promptTokens,
        completionTokens: spent.completionTokens,
        cachedTokens: spent.cachedTokens ?? 0,
        tools: {},
        durationMs: 0,
      });
    },
    async report(asker, key) {
      const admin = await isAdmin(settings.access, asker);
      const at = now();
      const [day, month] = [dayOf(at, zone), monthOf(at, zone)];
      const today = { since: day.start, until: day.end };
      const thisMonth = { since: month.start, until: month.end };
      const [youToday, youMonth, channelToday, channelMonth] = await Promise.all([
        totals({ ...today, userId: asker.principal }),
        totals({ ...thisMonth, userId: asker.principal }),
        totals({ ...today, key }),
        totals({ ...thisMonth, key }),
      ]);
      const report: UsageReport = {
        you: { today: youToday, month: youMonth },
        channel: { today: channelToday, month: channelMonth },
        prices: settings.prices,
      };
      if (admin) {
        const [users, channels, votes] = await Promise.all([
          usage.totals({ ...thisMonth, by: 'user', top: 10 }),
          usage.totals({ ...thisMonth, by: 'key', top: 10 }),
          deps.feedback?.feedbackTotals(thisMonth),
        ]);
        report.top = { users, channels };
        if (votes) report.feedback = votes;
      }
      return report;
    },
  };
}

function rate(name: string, scope: RateRule['scope'], value: Rate): RateRule {
  return { name, scope, limit: value.limit, windowMs: value.windowMs };
}

/** The reply to a limited question: which limit, and when the next question will be taken. */
function limitedMessage(rule: string, retryAt: number, at: number, settings: GovernanceSettings): string {
  const when = formatClock(Math.max(retryAt, at), at, settings.timeZone);
  const { limits } = settings;
  switch (rule) {
    case 'RATE_LIMIT_USER':
      return `You have reached the limit of ${describeRate(limits.RATE_LIMIT_USER)}; your next question will be taken at ${when}.`;
    case 'RATE_LIMIT_CHANNEL':
      return `This channel has reached its limit of ${describeRate(limits.RATE_LIMIT_CHANNEL)}; the next question will be taken at ${when}.`;
    case 'TOKEN_BUDGET_USER_DAY':
      return `Your token budget for today is spent; it resets at ${when}.`;
    case 'TOKEN_BUDGET_CHANNEL_DAY':
      return `This channel’s token budget for today is spent; it resets at ${when}.`;
    default:
      return `The bot’s token budget for today is spent; it resets at ${when}.`;
  }
}

function describeRate(value: Rate | null): string {
  if (!value) return 'questions';
  const [count, unit] = value.text.split('/');
  return `${count} question${count === '1' ? '' : 's'} per ${unit}`;
}
