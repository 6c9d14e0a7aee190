import { Counter, Histogram, type Registry } from 'prom-client';

/** Longest label value any metric carries; longer ones are cut, so no series name grows without bound. */
export const MAX_LABEL_CHARS = 64;

type Labels<L extends string> = Record<L, string>;

/** A value cut to {@link MAX_LABEL_CHARS}, never leaving half a surrogate pair. */
export function boundLabel(value: string): string {
  if (value.length <= MAX_LABEL_CHARS) return value;
  const cut = value.slice(0, MAX_LABEL_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function bound<L extends string>(labels: Labels<L>): Labels<L> {
  const out = {} as Labels<L>;
  for (const key of Object.keys(labels) as L[]) out[key] = boundLabel(labels[key]);
  return out;
}

/** What every labelled metric is declared with. */
interface Declaration<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registry: Registry;
}

/** A counter whose label values pass through {@link boundLabel}: the only way labels reach it. */
export interface BoundedCounter<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
}

/** A histogram whose label values pass through {@link boundLabel}. */
export interface BoundedHistogram<L extends string> {
  observe(labels: Labels<L>, value: number): void;
}

/** Declares a labelled counter in `registry`. */
export function boundedCounter<L extends string>(d: Declaration<L>): BoundedCounter<L> {
  const counter = new Counter<L>({
    name: d.name,
    help: d.help,
    labelNames: d.labelNames,
    registers: [d.registry],
  });
  return { inc: (labels, value = 1) => counter.inc(bound(labels), value) };
}

/** Declares a labelled histogram in `registry`. */
export function boundedHistogram<L extends string>(
  d: Declaration<L> & { buckets: number[] },
): BoundedHistogram<L> {
  const histogram = new Histogram<L>({
    name: d.name,
    help: d.help,
    labelNames: d.labelNames,
    buckets: d.buckets,
    registers: [d.registry],
  });
  return { observe: (labels, value) => histogram.observe(bound(labels), value) };
}
