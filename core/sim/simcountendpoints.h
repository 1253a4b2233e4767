#pragma once
// The simulated endpoint's prompt-counting endpoints, in the form a serving engine offers them
// (SimServerOptions::countEndpoints), so prompt calibration (core/engine/servercount.h) can be tested over
// HTTP:
//  - "vllm" (default): POST /tokenize {"model", "messages", "add_generation_prompt"} or {"prompt"} →
//    {"count", "max_model_len", "tokens"} (vLLM, SGLang)
//  - "llamacpp": POST /apply-template {"messages"} → {"prompt"} (no BOS), POST /tokenize {"content",
//    "add_special", "parse_special"} → {"tokens"} (add_special puts the BOS back) — llama.cpp's llama-server
//  - "none": neither (404), a server that can only be probed with a request
// Counts are what a generation request of the same messages reports as usage.prompt_tokens (the server's
// chat template, its tokenizer). Without a tokenizer the simulator cannot count: 404.

#include <string>

namespace Throughline::SimDetail {

struct ServerCore;

struct CountAnswer {
    bool handled = false; // target is a counting endpoint of the configured form
    int status = 200;
    std::string body; // JSON
};

CountAnswer countEndpoint(const ServerCore &core, const std::string &target, const std::string &body);

} // namespace Throughline::SimDetail
