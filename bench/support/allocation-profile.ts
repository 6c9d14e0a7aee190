import { Session } from 'node:inspector';

/** A running allocation profile; `report` stops it and lists the top allocation sites. */
export interface AllocationProfiler {
  report(top: number): Promise<string>;
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * Starts V8's sampling heap profiler in this process, keeping samples of objects that are collected
 * later too, so the report shows everything allocated (garbage included), by function and file:line.
 */
export async function startAllocationProfile(samplingInterval = 8192): Promise<AllocationProfiler> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async report(top) {
      const { profile } = await post<{ profile: { head: SamplingNode } }>('HeapProfiler.stopSampling');
      session.disconnect();
      const bySite = new Map<string, number>();
      let total = 0;
      const walk = (node: SamplingNode) => {
        const { functionName, url, lineNumber } = node.callFrame;
        const site = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
        bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
        total += node.selfSize;
        for (const child of node.children) walk(child);
      };
      walk(profile.head);
      const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1).padStart(7);
      const lines = [...bySite]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([site, bytes]) => `${mb(bytes)} MB  ${site}`);
      return `allocated (sampled): ${mb(total).trim()} MB\n${lines.join('\n')}\n`;
    },
  };
}
