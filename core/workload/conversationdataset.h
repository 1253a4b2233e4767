#pragma once
// Conversation datasets for benchmark prompts: ShareGPT style ({"conversations": [{"from": "human",
// "value": …}, {"from": "gpt", …}]}) and OpenAI messages ({"messages": [{"role": "user", "content": …}]}),
// as JSONL (one conversation per line) or as one JSON array. A conversation yields one sample: everything
// up to and including the first user turn (system messages and earlier turns included) is the prompt, the
// assistant turn that follows is the reference output. Length filters in characters or tokens (with a
// token counter). Pure data, no threads; immutable after load.

#include "core/campaign/workload.h"
#include "core/util/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct DatasetSample {
    std::string prompt; // user-visible text of the prompt turn(s), joined with "\n\n"
    std::string output; // reference answer (may be empty)
    int promptLen = 0;  // in the loader's unit (chars = Unicode code points, or tokens)
    int outputLen = 0;
    int line = 0; // 1-based line in the file (JSON array: line where the element starts)
};

class ConversationDataset
{
public:
    using TokenCounter = std::function<std::size_t(std::string_view)>;

    struct Filter {
        Workload::LengthUnit unit = Workload::LengthUnit::Chars;
        int minPrompt = 0; // 0 = no bound
        int maxPrompt = 0;
        int minOutput = 0;
        int maxOutput = 0;
    };

    struct Stats {
        int conversations = 0; // read and well-formed
        int kept = 0;
        int filteredByLength = 0;
        int withoutUserTurn = 0; // skipped: no user/human turn
    };

    // Errors (InvalidInput / Io / NotFound) name "file:line: field: problem". unit Tokens needs `counter`.
    static Result<ConversationDataset> load(const std::string &path, Workload::DatasetFormat format,
                                            const Filter &filter, const TokenCounter &counter = {});
    static Result<ConversationDataset> parse(std::string_view text, const std::string &sourceName,
                                             Workload::DatasetFormat format, const Filter &filter,
                                             const TokenCounter &counter = {});

    const std::vector<DatasetSample> &samples() const { return m_samples; }
    std::size_t size() const { return m_samples.size(); }
    const Stats &stats() const { return m_stats; }
    Workload::LengthUnit unit() const { return m_unit; }

    // Code points of UTF-8 text (invalid bytes count one each).
    static int charCount(std::string_view s);

private:
    std::vector<DatasetSample> m_samples;
    Stats m_stats;
    Workload::LengthUnit m_unit = Workload::LengthUnit::Chars;
};

// Which sample the n-th request of a run uses: with replacement a seeded uniform draw per n; without
// replacement a seeded permutation, cycled (every sample once before any repeats). Deterministic from
// the seed; pure.
class DatasetSampler
{
public:
    DatasetSampler(std::size_t size, bool withReplacement, std::uint64_t seed);
    std::size_t index(std::uint64_t n) const;

private:
    std::size_t m_size;
    bool m_withReplacement;
    std::uint64_t m_seed;
    std::vector<std::size_t> m_perm;
};

} // namespace Throughline
