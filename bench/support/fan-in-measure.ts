import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpuMsSince, mb, round, since } from './stats.js';

/** One fan-in: every channel asking at once. */
export interface FanIn {
  label: string;
  wallMs: number;
  correct: number;
  rssBeforeMb: number;
  /** Highest RSS sampled while the channels ran. */
  peakRssMb: number;
  /** The process's peak RSS so far (getrusage), which includes everything before. */
  processPeakRssMb: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** This process's CPU time per run while the channels ran. */
  cpuMsPerRun: number;
}

/** Runs `ask(i)` for `channels` channels at once; wall time, answers, memory and event-loop delay. */
export async function fanIn(
  label: string,
  channels: number,
  ask: (i: number) => Promise<boolean>,
): Promise<FanIn> {
  const rssBefore = process.memoryUsage.rss();
  // Sampled, because the process's own peak (maxRSS) includes everything before the channels arrived.
  let rssMax = rssBefore;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(Array.from({ length: channels }, (_, i) => ask(i)));
  const wallMs = since(start);
  const cpuMs = cpuMsSince(cpu);
  delay.disable();
  clearInterval(sampler);
  return {
    label,
    wallMs: round(wallMs, 0),
    correct: results.filter(Boolean).length,
    rssBeforeMb: mb(rssBefore),
    peakRssMb: mb(Math.max(rssMax, process.memoryUsage.rss())),
    processPeakRssMb: round(process.resourceUsage().maxRSS / 1024, 1),
    loopDelayP99Ms: round(delay.percentile(99) / 1e6, 1),
    loopDelayMaxMs: round(delay.max / 1e6, 1),
    cpuMsPerRun: round(cpuMs / channels, 2),
  };
}
