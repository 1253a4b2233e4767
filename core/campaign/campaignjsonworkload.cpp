// Decoding and writing of a phase's "workload" object (core/campaign/workload.h, docs/workloads.md).
// Members that do not belong to the chosen kind are refused by name, so a typo or a misplaced parameter
// never silently falls back to the synthetic default.

#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/jsonobjectreader.h"
#include "core/util/jsonpositions.h"

#include <set>

namespace Throughline {

namespace CampaignJsonDetail {

using nlohmann::json;

namespace {

const std::set<std::string> &keysOf(Workload::Kind k)
{
    static const std::set<std::string> synthetic{"kind"};
    static const std::set<std::string> dataset{"kind",
                                               "path",
                                               "format",
                                               "tokenizer",
                                               "length_unit",
                                               "min_prompt_len",
                                               "max_prompt_len",
                                               "min_output_len",
                                               "max_output_len",
                                               "sampling",
                                               "output_from_dataset"};
    static const std::set<std::string> trace{"kind", "path", "speed_up", "block_tokens"};
    static const std::set<std::string> multiTurn{"kind", "turns", "sessions", "warmup_sessions",
                                                 "think_time_s"};
    static const std::set<std::string> agentic{"kind",     "chain_length",    "fan_out",     "steps",
                                               "sessions", "warmup_sessions", "think_time_s"};
    switch (k) {
    case Workload::Kind::Synthetic:
        return synthetic;
    case Workload::Kind::Dataset:
        return dataset;
    case Workload::Kind::Trace:
        return trace;
    case Workload::Kind::MultiTurn:
        return multiTurn;
    case Workload::Kind::Agentic:
        return agentic;
    }
    return synthetic;
}

const char *kindName(Workload::Kind k)
{
    switch (k) {
    case Workload::Kind::Synthetic:
        return "synthetic";
    case Workload::Kind::Dataset:
        return "dataset";
    case Workload::Kind::Trace:
        return "trace";
    case Workload::Kind::MultiTurn:
        return "multi_turn";
    case Workload::Kind::Agentic:
        return "agentic";
    }
    return "synthetic";
}

} // namespace

Workload decodeWorkload(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    Workload w;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return w;
    const bool kindOk = o.enumeration("kind", w.kind,
                                      {{"synthetic", Workload::Kind::Synthetic},
                                       {"dataset", Workload::Kind::Dataset},
                                       {"trace", Workload::Kind::Trace},
                                       {"multi_turn", Workload::Kind::MultiTurn},
                                       {"agentic", Workload::Kind::Agentic}});
    if (!o.get("kind"))
        ctx.add(ptr, "missing required member 'kind' (synthetic, dataset, trace, multi_turn or agentic)");
    // Parameters of another kind: named, with the kind they belong to.
    const auto &allowed = keysOf(w.kind);
    for (auto it = j.begin(); kindOk && it != j.end(); ++it) {
        if (allowed.count(it.key()))
            continue;
        for (auto k : {Workload::Kind::Dataset, Workload::Kind::Trace, Workload::Kind::MultiTurn,
                       Workload::Kind::Agentic}) {
            if (keysOf(k).count(it.key())) {
                ctx.add(JsonPositions::join(ptr, it.key()),
                        "'" + it.key() + "' is a parameter of kind \"" + kindName(k) + "\", not of kind \"" +
                            kindName(w.kind) + "\"",
                        true);
                o.get(it.key().c_str()); // reported here; not again as unknown
                break;
            }
        }
    }
    switch (w.kind) {
    case Workload::Kind::Synthetic:
        break;
    case Workload::Kind::Dataset: {
        o.str("path", w.path, true, true);
        o.enumeration("format", w.format,
                      {{"auto", Workload::DatasetFormat::Auto},
                       {"sharegpt", Workload::DatasetFormat::ShareGpt},
                       {"openai_messages", Workload::DatasetFormat::OpenAiMessages}});
        o.str("tokenizer", w.tokenizer);
        o.enumeration("length_unit", w.lengthUnit,
                      {{"chars", Workload::LengthUnit::Chars}, {"tokens", Workload::LengthUnit::Tokens}});
        o.integer("min_prompt_len", w.minPromptLen, 0, 100'000'000);
        o.integer("max_prompt_len", w.maxPromptLen, 0, 100'000'000);
        o.integer("min_output_len", w.minOutputLen, 0, 100'000'000);
        o.integer("max_output_len", w.maxOutputLen, 0, 100'000'000);
        bool withReplacement = false;
        o.enumeration("sampling", withReplacement,
                      {{"without_replacement", false}, {"with_replacement", true}});
        w.withReplacement = withReplacement;
        o.boolean("output_from_dataset", w.outputFromDataset);
        if (w.maxPromptLen > 0 && w.minPromptLen > w.maxPromptLen)
            ctx.add(o.at("min_prompt_len"), "min_prompt_len (" + std::to_string(w.minPromptLen) +
                                                ") exceeds max_prompt_len (" +
                                                std::to_string(w.maxPromptLen) + ")");
        if (w.maxOutputLen > 0 && w.minOutputLen > w.maxOutputLen)
            ctx.add(o.at("min_output_len"), "min_output_len (" + std::to_string(w.minOutputLen) +
                                                ") exceeds max_output_len (" +
                                                std::to_string(w.maxOutputLen) + ")");
        if (w.lengthUnit == Workload::LengthUnit::Tokens && w.tokenizer.empty())
            ctx.add(o.at("length_unit"),
                    "length_unit \"tokens\" needs a tokenizer (path of a tokenizer.json or tiktoken file)");
        break;
    }
    case Workload::Kind::Trace:
        o.str("path", w.path, true, true);
        o.number("speed_up", w.speedUp, 0, 1e6, true);
        o.integer("block_tokens", w.blockTokens, 1, 1'000'000);
        break;
    case Workload::Kind::MultiTurn:
        o.integer("turns", w.turns, 1, 10'000);
        o.integer("sessions", w.sessions, 0, 100'000'000);
        o.integer("warmup_sessions", w.warmupSessions, 0, 100'000'000);
        o.number("think_time_s", w.thinkTimeS, 0, 1e6);
        break;
    case Workload::Kind::Agentic: {
        o.integer("chain_length", w.chainLength, 1, 10'000);
        o.integer("fan_out", w.fanOut, 1, 10'000);
        o.integer("sessions", w.sessions, 0, 100'000'000);
        o.integer("warmup_sessions", w.warmupSessions, 0, 100'000'000);
        o.number("think_time_s", w.thinkTimeS, 0, 1e6);
        w.steps = decodeArray<AgenticStep>(ctx, o.get("steps"), o.at("steps"),
                                           [&](const json &sj, const std::string &sp) {
                                               AgenticStep s;
                                               JsonObjectReader so(ctx, &sj, sp);
                                               if (!so.valid())
                                                   return s;
                                               so.integer("isl", s.isl, 1, 10'000'000);
                                               so.integer("osl", s.osl, 1, 10'000'000);
                                               s.fanOut = w.fanOut;
                                               so.integer("fan_out", s.fanOut, 1, 10'000);
                                               so.finish();
                                               return s;
                                           });
        if (!w.steps.empty()) {
            if (o.get("chain_length") && static_cast<int>(w.steps.size()) != w.chainLength)
                ctx.add(o.at("chain_length"), "chain_length (" + std::to_string(w.chainLength) +
                                                  ") differs from the number of steps (" +
                                                  std::to_string(w.steps.size()) + ")");
            w.chainLength = static_cast<int>(w.steps.size());
        }
        break;
    }
    }
    o.finish();
    return w;
}

} // namespace CampaignJsonDetail

nlohmann::json CampaignJson::toJson(const Workload &w)
{
    using nlohmann::json;
    json j{{"kind", CampaignJsonDetail::kindName(w.kind)}};
    switch (w.kind) {
    case Workload::Kind::Synthetic:
        break;
    case Workload::Kind::Dataset: {
        static const char *formats[] = {"auto", "sharegpt", "openai_messages"};
        j["path"] = w.path;
        j["format"] = formats[int(w.format)];
        j["tokenizer"] = w.tokenizer;
        j["length_unit"] = w.lengthUnit == Workload::LengthUnit::Tokens ? "tokens" : "chars";
        j["min_prompt_len"] = w.minPromptLen;
        j["max_prompt_len"] = w.maxPromptLen;
        j["min_output_len"] = w.minOutputLen;
        j["max_output_len"] = w.maxOutputLen;
        j["sampling"] = w.withReplacement ? "with_replacement" : "without_replacement";
        j["output_from_dataset"] = w.outputFromDataset;
        break;
    }
    case Workload::Kind::Trace:
        j["path"] = w.path;
        j["speed_up"] = w.speedUp;
        j["block_tokens"] = w.blockTokens;
        break;
    case Workload::Kind::MultiTurn:
        j["turns"] = w.turns;
        j["sessions"] = w.sessions;
        j["warmup_sessions"] = w.warmupSessions;
        j["think_time_s"] = w.thinkTimeS;
        break;
    case Workload::Kind::Agentic: {
        j["chain_length"] = w.chainLength;
        j["fan_out"] = w.fanOut;
        json steps = json::array();
        for (const auto &s : w.steps) {
            json sj{{"fan_out", s.fanOut}};
            if (s.isl > 0) // 0 = the phase's length: left out
                sj["isl"] = s.isl;
            if (s.osl > 0)
                sj["osl"] = s.osl;
            steps.push_back(sj);
        }
        j["steps"] = steps;
        j["sessions"] = w.sessions;
        j["warmup_sessions"] = w.warmupSessions;
        j["think_time_s"] = w.thinkTimeS;
        break;
    }
    }
    return j;
}

} // namespace Throughline
