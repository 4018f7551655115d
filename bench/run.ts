/**
 * Benchmarks, printing figures (not pass/fail): `npm run bench` runs them all;
 * `npm run bench -- sdk engine` runs some. Not part of CI.
 */
import { bundle } from './bundle.bench';
import { engine } from './engine.bench';
import { featureList } from './feature-list.bench';
import { foundation } from './foundation.bench';
import { history } from './history.bench';
import { live } from './live.bench';
import { memory } from './memory.bench';
import { payload } from './payload.bench';
import { schedules } from './schedules.bench';
import { sdk } from './sdk.bench';

const all = {
  foundation,
  engine,
  sdk,
  payload,
  bundle,
  featureList,
  history,
  live,
  memory,
  schedules,
} as const;
const wanted = process.argv.slice(2).filter((name): name is keyof typeof all => name in all);
for (const name of wanted.length ? wanted : (Object.keys(all) as (keyof typeof all)[])) {
  console.log(`\n## ${name}\n`);
  await all[name]();
}
