// CPU-profile target: validates one bench document repeatedly so `node --cpu-prof` shows where the core spends its time.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts [valid|errors] [batch|ruleset|job|filter] [runs]
//   node --import tsx bench/profileSummary.ts /tmp/prof/<file>.cpuprofile
import { batchDoc, filterDoc, jobDoc, rulesetDoc } from './docs';
import { getLanguageService } from '../server/src/core';

const validateText = getLanguageService().validate;

const variant = process.argv[2] === 'errors' ? 'errors' : 'valid';
const make = { batch: batchDoc, ruleset: rulesetDoc, job: jobDoc, filter: filterDoc }[process.argv[3] ?? 'batch'] ?? batchDoc;
const runs = Number(process.argv[4] ?? 30);
const doc = make(variant);
let problems = 0;
const t0 = performance.now();
for (let i = 0; i < runs; i++) problems = validateText(doc.text, doc.kind).length;
const ms = (performance.now() - t0) / runs;
process.stdout.write(`${doc.name} ${variant}: ${runs} runs, ${ms.toFixed(1)} ms per run, ${problems} problems\n`);
