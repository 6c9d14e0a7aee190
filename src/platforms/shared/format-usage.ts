import type { UsageReport } from '../../core/governance/governor.js';
import type { FeedbackTotals } from '../../core/ports/feedback-store.js';
import type { UsageTotals } from '../../core/ports/usage-store.js';
import { approvalLines } from './format-approvals.js';

const count = (n: number) => n.toLocaleString('en');

/** Estimated USD cost of some totals, when both prices are known. */
function cost(totals: UsageTotals, prices: UsageReport['prices']): string {
  if (prices.input === undefined && prices.output === undefined) return '';
  const usd =
    (totals.promptTokens * (prices.input ?? 0) + totals.completionTokens * (prices.output ?? 0)) / 1_000_000;
  return `, about $${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** The share of prompt tokens the model server read from its cache, when it said so. */
function cached(totals: UsageTotals): string {
  if (totals.cachedTokens <= 0 || totals.promptTokens <= 0) return '';
  return ` (${Math.round((100 * totals.cachedTokens) / totals.promptTokens)}% of prompt tokens cached)`;
}

function line(totals: UsageTotals, prices: UsageReport['prices']): string {
  const questions = `${count(totals.questions)} question${totals.questions === 1 ? '' : 's'}`;
  const tokens = count(totals.promptTokens + totals.completionTokens);
  return `${questions}, ${tokens} tokens${cached(totals)}${cost(totals, prices)}`;
}

function top(title: string, rows: readonly UsageTotals[], prices: UsageReport['prices']): string[] {
  if (rows.length === 0) return [`${title}: none yet`];
  return [`${title}:`, ...rows.map((row, i) => `  ${i + 1}. ${row.group}: ${line(row, prices)}`)];
}

/** Votes on answers in one line: `Feedback this month: 3 👍, 1 👎 (2 with a comment)`. */
export function feedbackLine(title: string, votes: FeedbackTotals): string {
  const comments = votes.comments > 0 ? ` (${count(votes.comments)} with a comment)` : '';
  return `${title}: ${count(votes.up)} 👍, ${count(votes.down)} 👎${comments}`;
}

/** The `/usage` report as plain text: the asker's and the channel's usage, and the top lists for admins. */
export function formatUsageReport(report: UsageReport): string {
  const { prices } = report;
  const lines = [
    `You today: ${line(report.you.today, prices)}`,
    `You this month: ${line(report.you.month, prices)}`,
    `This channel today: ${line(report.channel.today, prices)}`,
    `This channel this month: ${line(report.channel.month, prices)}`,
  ];
  if (report.top) {
    lines.push(
      ...top('Top users this month', report.top.users, prices),
      ...top('Top channels this month', report.top.channels, prices),
    );
  }
  if (report.feedback) lines.push(feedbackLine('Feedback this month', report.feedback));
  if (report.approvals) lines.push(...approvalLines('Tool-call approvals, last 30 days', report.approvals));
  return lines.join('\n');
}
