// Self time by function (and by package) of a V8 .cpuprofile, heaviest first.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: summarize-profile.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const place = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes('/src/')) return `src/${url.split('/src/')[1]}`;
  if (url.includes('/bench/')) return `bench/${url.split('/bench/')[1]}`;
  return url.startsWith('node:') ? url : url ? url.split('/').slice(-2).join('/') : '(native)';
};
const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const key = `${functionName || '(anonymous)'} ${place(url)}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byPlace.set(place(url), (byPlace.get(place(url)) ?? 0) + us);
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (total ${(total / 1000).toFixed(0)} ms)\n`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(
      `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(8)} ms  ${key}\n`,
    );
  }
};
show('self time by place', byPlace);
show('self time by function', byFunction);
