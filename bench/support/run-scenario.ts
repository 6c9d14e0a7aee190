// Entry of one scenario's process (forked by bench/run.ts), so every scenario starts from a fresh heap and
// its peak memory and startup effects are its own.
import type { ScenarioOptions, ScenarioReport } from './report.js';

const [name, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}') as ScenarioOptions;
const scenario = (await import(`../scenarios/${name}.js`)) as {
  run(options: ScenarioOptions): Promise<ScenarioReport>;
};
const report = await scenario.run(options);
process.send?.({ type: 'report', report }, () => process.exit(0));
