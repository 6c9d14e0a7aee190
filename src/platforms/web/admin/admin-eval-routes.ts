import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { RunLogStore } from '../../../core/ports/run-log-store.js';
import { candidateId, decide, decisionsFile, readDecisions } from '../../../evals/candidates.js';
import { adminSetsDir, appendCase, SET_NAME_RE } from '../../../evals/case-file.js';
import { caseFromRun } from '../../../evals/case-from-run.js';
import { evalCaseSchema, setNames } from '../../../evals/eval-case.js';
import { historyFile, readHistory } from '../../../evals/eval-history.js';
import type { HttpRoutes } from '../../../server/http-server.js';
import { reply } from '../replies.js';
import { readJson } from '../request-body.js';

/** 👎 votes listed as candidates, and kept runs per trend line. */
const CANDIDATES = 50;
const POINTS = 30;
const DAY_MS = 86_400_000;
/** How far back candidates are looked for. */
const CANDIDATE_DAYS = 90;

type Api = (
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void,
) => (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const lines = z.array(z.string().trim().min(1).max(500)).max(20).optional();
const addBody = z.object({
  usageId: z.number().int().positive(),
  set: z.string().regex(SET_NAME_RE, 'a set is named with letters, digits, _ . - (60 at most)'),
  id: z.string().optional(),
  checks: evalCaseSchema.shape.checks.extend({ contains: lines, notContains: lines }),
  /** The 👎 this case answers, marked accepted once the case is written. */
  candidate: z.string().max(600).optional(),
});
const dismissBody = z.object({ candidate: z.string().min(1).max(600) });

/** One line of the trend: a set's pass rate run after run, for one model, protocol and mode. */
interface TrendLine {
  set: string;
  model: string;
  protocol: string;
  recorded: boolean;
  points: { at: number; passed: number; total: number }[];
}

/** The pass rate per set and model over the kept eval runs, newest runs last, at most POINTS per line. */
function trend(file: string): TrendLine[] {
  const lines = new Map<string, TrendLine>();
  for (const run of readHistory(file)) {
    for (const set of run.sets) {
      const cases = run.cases.filter((c) => c.set === set);
      if (cases.length === 0) continue;
      const name = JSON.stringify([set, run.model, run.protocol, run.recorded]);
      const line = lines.get(name) ?? {
        set,
        model: run.model,
        protocol: run.protocol,
        recorded: run.recorded,
        points: [],
      };
      line.points.push({ at: run.at, passed: cases.filter((c) => c.pass).length, total: cases.length });
      lines.set(name, line);
    }
  }
  return [...lines.values()]
    .map((l) => ({ ...l, points: l.points.slice(-POINTS) }))
    .sort((a, b) => a.set.localeCompare(b.set) || a.model.localeCompare(b.model));
}

/**
 * Mounts the admin page's evals: `GET /admin/api/evals` (the trend per set and model, the 👎 candidates not yet
 * decided, the sets the page writes), `POST /admin/api/evals/cases` (a kept run becomes a case, with the
 * observations its tools returned recorded) and `POST /admin/api/evals/dismiss` (a candidate set aside).
 */
export function mountAdminEvals(
  http: HttpRoutes,
  api: Api,
  deps: { store: RunLogStore | undefined; dataDir: string; now: () => number },
): void {
  const setsDir = adminSetsDir(deps.dataDir);
  const decisions = decisionsFile(deps.dataDir);
  const noStore = (res: ServerResponse) => reply(res, 503, { error: 'This store keeps no run logs.' });

  http.mount(
    'GET',
    '/admin/api/evals',
    api(async (_req, res) => {
      const at = deps.now();
      const decided = readDecisions(decisions);
      // A partial store (a test's) may keep runs without listing votes.
      const downvotes =
        typeof deps.store?.listDownvotes === 'function'
          ? await deps.store.listDownvotes({
              since: at - CANDIDATE_DAYS * DAY_MS,
              until: at + 1,
              limit: 4 * CANDIDATES,
            })
          : [];
      const candidates = downvotes
        .map((d) => ({ ...d, id: candidateId(d) }))
        .filter((d) => decided[d.id] === undefined)
        .slice(0, CANDIDATES);
      reply(res, 200, {
        trend: trend(historyFile(deps.dataDir)),
        candidates,
        sets: setNames(setsDir),
        setsDir,
      });
    }),
  );

  http.mount(
    'POST',
    '/admin/api/evals/cases',
    api(async (req, res) => {
      if (!deps.store) return noStore(res);
      const body = await readJson(req, addBody);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      const { usageId, set, id, checks, candidate } = body.value;
      const run = await deps.store.runDetail(usageId);
      if (!run) return reply(res, 404, { error: 'No such run.' });
      const made = caseFromRun(run, checks, { id: id?.trim() || undefined });
      if (!made)
        return reply(res, 409, {
          error: 'This run’s question is no longer kept, so it cannot become a case.',
        });
      const parsed = evalCaseSchema.safeParse(made);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return reply(res, 400, { error: `${issue.path.join('.') || 'case'}: ${issue.message}` });
      }
      if (!appendCase(setsDir, set, parsed.data)) {
        return reply(res, 409, {
          error: `Set ${set} already has a case ${parsed.data.id}; give this one another id.`,
        });
      }
      if (candidate) decide(decisions, candidate, 'accepted');
      reply(res, 201, { set, id: parsed.data.id, file: `${setsDir}/${set}.jsonl` });
    }),
  );

  http.mount(
    'POST',
    '/admin/api/evals/dismiss',
    api(async (req, res) => {
      const body = await readJson(req, dismissBody);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      decide(decisions, body.value.candidate, 'dismissed');
      reply(res, 204, undefined);
    }),
  );
}
