// Exact-length prompt synthesis speed (TokenizerPromptSource / PromptSynth) per shipped tokenizer:
//   bench_prompts [COUNT] [ISL…]   default 200 prompts at ISL 128, 1000 and 8000.
// Prints prompts/s synthesised on one thread (cold: make() without a hint), that every prompt re-encodes to
// exactly ISL ids, and the producer's rate with prepare() as the engine uses it; for completions text
// ("text") and chat ("chat": ISL counts the model's templated prompt, core/tokenizer/chattemplate.h). Needs
// the fetched tokenizer files (THROUGHLINE_TOKENIZER_TEST_CACHE, filled by tst_tokenizerfetch or
// `throughline-cli tokenizers fetch
// --dir`).
#include "core/engine/tokenizerpromptsource.h"
#include "core/tokenizer/tokenizerstore.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Throughline;
using Clock = std::chrono::steady_clock;

int main(int argc, char **argv)
{
    const int count = argc > 1 ? std::atoi(argv[1]) : 200;
    std::vector<int> isls;
    for (int i = 2; i < argc; ++i)
        isls.push_back(std::atoi(argv[i]));
    if (isls.empty())
        isls = {128, 1000, 8000};
    auto store = TokenizerStore::open(THROUGHLINE_TOKENIZER_TEST_CACHE);
    if (!store)
        return std::fprintf(stderr, "%s\n", store.error().message.c_str()), 2;
    int failures = 0;
    for (const char *name : {"llama3_1", "gptoss", "deepseek_v3"}) {
        auto tok = store->load(name);
        if (!tok)
            return std::fprintf(stderr, "%s\n", tok.error().message.c_str()), 3;
        const ChatTemplate tpl = ChatTemplate::forTokenizer(**tok);
        for (const int isl : isls)
            for (const bool chat : {false, true}) {
                // Synchronous (what make() costs without a hint); the first call also builds the body.
                TokenizerPromptSource src(*tok, name, 1);
                if (chat)
                    src.setChatTemplate(tpl);
                const auto t0 = Clock::now();
                (void)src.make(0, isl, false);
                const double firstMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                const auto t1 = Clock::now();
                int exact = 0;
                std::vector<Prompt> made;
                made.reserve(static_cast<std::size_t>(count));
                for (int i = 1; i <= count; ++i)
                    made.push_back(src.make(static_cast<std::uint64_t>(i), isl, false));
                const double s = std::chrono::duration<double>(Clock::now() - t1).count();
                for (const Prompt &p : made)
                    exact += p.exact && (chat ? tpl.count(**tok, {ChatMessage{"user", p.text}})
                                              : static_cast<int>((*tok)->encode(p.text).size())) == isl;
                failures += count - exact;
                // Producer: prepare() then take them in order (as the engine does), waiting when needed.
                TokenizerPromptSource pre(*tok, name, 2);
                if (chat)
                    pre.setChatTemplate(tpl);
                const auto t2 = Clock::now();
                pre.prepare(0, static_cast<std::uint64_t>(count), [isl](std::uint64_t) { return isl; });
                for (int i = 0; i < count; ++i)
                    (void)pre.make(static_cast<std::uint64_t>(i), isl, false);
                const double ps = std::chrono::duration<double>(Clock::now() - t2).count();
                const auto st = pre.stats();
                std::printf("%-12s %s ISL %5d: %d/%d exact; first %.0f ms (body), then %.2f ms/prompt = %.0f "
                            "prompts/s; "
                            "with prepare(): %.0f prompts/s (prefetched %llu, waited %llu, late %llu)\n",
                            name, chat ? "chat" : "text", isl, exact, count, firstMs, s * 1000 / count,
                            count / s, count / ps, static_cast<unsigned long long>(st.prefetched),
                            static_cast<unsigned long long>(st.waited),
                            static_cast<unsigned long long>(st.late));
                std::fflush(stdout);
            }
    }
    return failures == 0 ? 0 : 1;
}
