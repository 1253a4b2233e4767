#pragma once
// Exact-length prompts for the load engine: PromptSynth with the model's own tokenizer, so a request of
// ISL n carries exactly n prompt tokens (text tokens: no BOS, no chat template) — as text, or as token ids
// for completions presets that accept them. Unique per request (random ids right after the optional shared
// prefix), or a shared prefix of ratio × ISL tokens common to all requests (prefix-cache tests);
// deterministic from (tokenizer, seed, ratio, seq, isl).
//
// Chat presets: with a ChatTemplate (setChatTemplate / the factory for chat-flavour endpoints) the prompt is
// the content of one user message, and ISL counts the whole templated prompt the server tokenizes
// (template tokens + content, generation prompt included), so usage.prompt_tokens == ISL. The content length
// starts at ISL − template overhead and is corrected from the templated count (a template may change how the
// content's edges tokenize, e.g. Llama 3 trims it); an ISL at or below the overhead is not exact. The content
// starts with a letter (no leading space), so a template that trims it and one that does not count it alike.
//
// Prompt calibration (calibrate(), before a scenario's first point): the server itself is asked how it counts
// (ServerChatCounter: /tokenize, /apply-template + /tokenize, or one probe request). Two probe messages of
// different lengths give the server's tokens outside the user's text; when both agree, every later prompt is
// built to that count instead of the formatter's, so a server running another template than the client's
// formatter still counts exactly ISL. Optional earlier messages (setEarlierMessages: a system message,
// earlier turns) are sent before every prompt and counted with it.
//
// Speed: ISL 8000 takes ~3 ms per prompt (chat ~6 ms: one more encode; bench_prompts), too slow for the
// sending path, so prepare() starts one producer thread that makes the point's prompts ahead of time
// (bounded: kMaxAhead prompts and kMaxAheadBytes). make() takes a ready prompt, waits for the one being made,
// or makes it itself when the producer has fallen behind (counted in stats().late).
//
// Thread affinity: make() and prepare() from any thread; the producer is joined by the destructor.

#include "core/engine/promptsource.h"
#include "core/engine/servercount.h"
#include "core/tokenizer/bpetokenizer.h"
#include "core/tokenizer/chattemplate.h"
#include "core/tokenizer/promptsynth.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace Throughline {

// What prompt calibration found (TokenizerPromptSource::calibrate); results.json carries `note` as a validity
// note of every point, provenance.json scenarios[].prompt_calibration the fields (toJson()).
struct ChatCalibration {
    std::string method;    // how the server answered ("tokenize", "apply-template", "probe"); "" = not asked
    bool applied = false;  // prompts are built to the server's count from now on
    int serverFixed = -1;  // the server's tokens outside the user's text (template, system message)
    int clientFixed = 0;   // the client formatter's
    int isl = 0;           // the ISL of the before/after check
    int beforeServer = -1; // the server's count of a prompt built by the formatter (-1 = not asked)
    int afterServer = -1;  // … and of the calibrated prompt for the same request
    std::string note;      // one sentence for the validity notes
    nlohmann::json toJson() const;
};

class TokenizerPromptSource : public PromptSource
{
public:
    static constexpr std::size_t kMaxAhead = 4096;
    static constexpr std::size_t kMaxAheadBytes = std::size_t(128) << 20;

    // tokenizerName: for name() and messages ("llama3_1").
    TokenizerPromptSource(std::shared_ptr<const BpeTokenizer> tokenizer, std::string tokenizerName,
                          std::uint64_t seed, double sharedPrefixRatio = 0);
    ~TokenizerPromptSource() override;

    // Count ISL through this chat template (one user message + generation prompt). Call before any make().
    void setChatTemplate(ChatTemplate tpl);
    const std::optional<ChatTemplate> &chatTemplate() const { return m_chat; }
    // Templated tokens around an empty user message (0 without a chat template).
    int chatOverhead() const { return m_chatOverhead; }
    // Messages before every prompt's user message, counted in ISL: a system message, earlier turns of a
    // conversation. Contents are sent trimmed (JavaScript trim), empty ones dropped.
    void setEarlierMessages(std::vector<ChatMessage> messages);
    // Asks the server how it counts (chat template set; before any make() and prepare()) and, when its
    // answers are consistent, builds every later prompt to its count. isl: the phase's, for the before/after
    // check.
    ChatCalibration calibrate(ServerChatCounter &server, int isl) const;

    Prompt make(std::uint64_t seq, int isl, bool tokenIds) const override;
    // request template "prompt_source": "exact:llama3_1", "exact-chat:llama3_1" with a chat template
    std::string name() const override { return (m_chat ? "exact-chat:" : "exact:") + m_name; }
    // Per-run unique prompts (PromptSource::setRunSalt); drops prompts made ahead for another salt.
    void setRunSalt(std::uint64_t salt) const override;
    void prepare(std::uint64_t firstSeq, std::uint64_t count, std::function<int(std::uint64_t seq)> islOf,
                 std::uint64_t readyBefore = 0) const override;

    struct Stats {
        std::uint64_t prefetched = 0; // make() served from the producer's queue
        std::uint64_t waited = 0;     // make() waited for the prompt the producer was making
        std::uint64_t late = 0;       // make() synthesised the prompt itself (producer behind or no hint)
        std::uint64_t failed = 0;     // synthesis failed: approximate fallback used (never seen in tests)
    };
    Stats stats() const;
    const BpeTokenizer &tokenizer() const { return *m_tok; }
    double sharedPrefixRatio() const { return m_ratio; }

private:
    struct Ready {
        int isl = 0;
        std::string text;
        std::vector<int> ids;
    };
    Ready synthesise(std::uint64_t seq, int isl) const;
    // serverFixed >= 0: the calibrated count (serverFixed + the content's own tokens), else the formatter's.
    Result<SynthPrompt> synthChat(std::uint64_t seq, int isl, int serverFixed) const;
    int chatCount(const std::string &content, int serverFixed) const;
    std::vector<ChatMessage> messagesWith(const std::string &content) const;
    Prompt toPrompt(Ready &&r, bool tokenIds) const;
    void produce() const;

    std::shared_ptr<const BpeTokenizer> m_tok;
    std::string m_name;
    double m_ratio = 0;
    PromptSynth m_synth;
    std::optional<ChatTemplate> m_chat;
    int m_chatOverhead = 0;
    std::vector<ChatMessage> m_earlier; // setEarlierMessages

    // Producer state, guarded by m_mu.
    mutable std::mutex m_mu;
    mutable std::condition_variable m_cv;
    mutable std::thread m_thread;
    mutable bool m_stop = false;
    mutable std::uint64_t m_next = 0;                 // next seq the producer makes
    mutable std::uint64_t m_end = 0;                  // end of the hinted range
    mutable std::uint64_t m_busy = ~std::uint64_t{0}; // seq being made by the producer
    mutable std::function<int(std::uint64_t)> m_islOf;
    mutable std::map<std::uint64_t, Ready> m_ready;
    mutable std::size_t m_readyBytes = 0;
    mutable Stats m_stats;
    mutable std::uint64_t m_salt = 0; // guarded by m_mu; read by synthesise() through a copy
    mutable int m_serverFixed = -1;   // calibration (guarded by m_mu, copied like the salt); -1 = none
};

// The chat template a scenario's server renders: the endpoint's chat_template file read as a formatter
// (readJinjaTemplate) or the model's own (ChatTemplate::forModel); its date line as the endpoint says,
// else as the backend fills it (ChatTemplate::backendDate). note: what the run says about it — the file's
// reading and the features the formatter ignores, or why the file is not used; empty without a file.
struct ScenarioChatTemplate {
    ChatTemplate tpl;
    std::string note;
};
ScenarioChatTemplate chatTemplateFor(const Scenario &scenario, const BpeTokenizer &tokenizer);

// The factory the CLI and the GUI give RunOptions::promptFactory: exact prompts with the scenario model's
// tokenizer (and, for chat-flavour endpoints, its chat template) when its files are in the cache
// (tokenizerCacheDir "" = TokenizerStore's default), else the synthetic source and a validity note that says
// why ("approximate ISL: tokenizer X not fetched; run `throughline-cli tokenizers fetch`"). Seed and
// shared-prefix ratio come from the scenario's load plan.
PromptSourceFactory exactPromptSourceFactory(std::string tokenizerCacheDir = {});

// Prompt calibration of a scenario before its first point (RunController): for a chat-flavour scenario whose
// prompts come from a TokenizerPromptSource with a chat template, asks the server at
// scenario.endpoint.baseUrl (TokenizerPromptSource::calibrate with the phase's ISL). Null when nothing was
// calibrated (another source, completions); else the finding (ChatCalibration::toJson) — its note, when not
// empty, belongs in every point's validity notes.
nlohmann::json calibrateScenarioPrompts(const Scenario &scenario,
                                        const std::shared_ptr<const PromptSource> &prompts,
                                        const std::string &apiKey);

} // namespace Throughline
