#pragma once
// Where a phase's requests come from and how they relate to each other (docs/workloads.md). Synthetic is
// the default (today's behaviour: independent prompts of the phase's ISL/OSL). The other kinds are run by
// core/workload (WorkloadDriver) through RunController's workload hook.

#include <string>
#include <vector>

namespace Throughline {

// One step of an agentic chain: its own lengths, optionally fanned out to parallel sub-calls.
struct AgenticStep {
    int isl = 0;    // 0 = the phase's ISL
    int osl = 0;    // 0 = the phase's OSL
    int fanOut = 1; // parallel sub-calls of this step; the next step starts when all of them finished

    bool operator==(const AgenticStep &) const = default;
};

struct Workload {
    enum class Kind { Synthetic, Dataset, Trace, MultiTurn, Agentic };
    enum class DatasetFormat { Auto, ShareGpt, OpenAiMessages };
    enum class LengthUnit { Chars, Tokens };

    Kind kind = Kind::Synthetic;

    // Dataset and trace: the file (absolute, or relative to the working directory of the run).
    std::string path;
    // Dataset: JSONL (one conversation per line) or one JSON array of conversations.
    DatasetFormat format = DatasetFormat::Auto;
    std::string tokenizer; // tokenizer.json (or tiktoken rank file) for token-unit filters
    LengthUnit lengthUnit = LengthUnit::Chars;
    int minPromptLen = 0; // 0 = no bound; unit: lengthUnit
    int maxPromptLen = 0;
    int minOutputLen = 0;
    int maxOutputLen = 0;
    bool withReplacement = false;  // sampling from the seed; without: a seeded permutation, cycled
    bool outputFromDataset = true; // OSL = the dataset's assistant turn (else the phase's OSL)

    // Trace: replay speed (2 = twice as fast), tokens per hash block (Mooncake: 512).
    double speedUp = 1.0;
    int blockTokens = 512;

    // Multi-turn and agentic: sessions (chains) per point; 0 = max(C, plan budget ÷ calls per session).
    int sessions = 0;
    int warmupSessions = 0;
    double thinkTimeS = 0; // client think time between turns / between chain steps (model time)

    // Multi-turn: turns per session (each turn adds phase ISL new tokens; answers are phase OSL).
    int turns = 4;

    // Agentic: K dependent calls; `steps` (when non-empty) gives each call its own lengths and fan-out.
    int chainLength = 10;
    int fanOut = 1; // default fan-out of every step
    std::vector<AgenticStep> steps;

    bool operator==(const Workload &) const = default;
};

} // namespace Throughline
