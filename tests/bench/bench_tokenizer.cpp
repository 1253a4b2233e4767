// Tokenizer benchmark (never timed in CI).
//   bench_tokenizer            encode the same ~1 MB text with the C++ o200k_base and with
//                              gpt-tokenizer (Node, tests/tokenizer-ref/bench.mjs); ids must be
//                              identical; prints both speeds in MB/s (10^6 bytes of UTF-8 per second),
//                              plus the C++ speed of every shipped tokenizer.
//   bench_tokenizer --prompts  1,000 exact-length prompts at ISL 128/1000/8000 per shipped tokenizer,
//                              each re-encoded to exactly ISL tokens.
// Tokenizer files come from THROUGHLINE_TOKENIZER_DIR or the build tree's test cache (fetched if missing);
// the Node packages from the build tree's tokenizer-ref directory (npm install if missing).
#include "core/tokenizer/promptsynth.h"
#include "core/tokenizer/tokenizerstore.h"
#include "core/tokenizer/utf8.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <chrono>
#include <cstdio>

using namespace Throughline;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

// ~1 MB of mixed prose, code and multilingual text from the source tree and the reference corpus.
std::string benchText()
{
    std::string text;
    const QString src = QStringLiteral(THROUGHLINE_SOURCE_DIR);
    QFile corpus(src + QStringLiteral("/tests/data/tokenizer/corpus.json"));
    if (corpus.open(QIODevice::ReadOnly)) {
        for (const auto &s : nlohmann::json::parse(corpus.readAll().toStdString()))
            text += s.get<std::string>() + "\n";
    }
    QStringList files;
    for (const QString &dir : {QStringLiteral("/docs"), QStringLiteral("/core"), QStringLiteral("/ui"),
                               QStringLiteral("/app"), QStringLiteral("/tests")}) {
        QDirIterator it(src + dir, {QStringLiteral("*.md"), QStringLiteral("*.cpp"), QStringLiteral("*.h")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    files.sort(); // stable order on every machine
    const std::string base = text;
    while (text.size() < 1'000'000) {
        for (const QString &f : files) {
            QFile in(f);
            if (in.open(QIODevice::ReadOnly))
                text += in.readAll().toStdString();
            if (text.size() >= 1'000'000)
                break;
        }
        text += base;
    }
    text.resize(1'000'000);
    text = Utf8::sanitize(text); // the cut may split a character
    // No U+FEFF: gpt-tokenizer mis-decodes tokens starting with a BOM (see tst_tokenizerreference).
    for (std::size_t p; (p = text.find("\xEF\xBB\xBF")) != std::string::npos;)
        text.erase(p, 3);
    return text;
}

int runProcess(const QString &program, const QStringList &args, const QString &cwd, QByteArray &out)
{
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(program, args);
    if (!p.waitForStarted(20'000) || !p.waitForFinished(30 * 60'000))
        return -1;
    out = p.readAllStandardOutput();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

int speed(const TokenizerStore &store)
{
    const std::string text = benchText();
    const QString refDir = QStringLiteral(THROUGHLINE_TOKENIZER_REF_DIR);
    QDir().mkpath(refDir);
    const QString textPath = refDir + QStringLiteral("/bench-text.txt");
    QFile tf(textPath);
    if (!tf.open(QIODevice::WriteOnly) || tf.write(text.data(), static_cast<qint64>(text.size())) < 0)
        return std::fprintf(stderr, "cannot write %s\n", qPrintable(textPath)), 3;
    tf.close();
    const double mb = static_cast<double>(text.size()) / 1e6;
    std::printf("text: %zu bytes (%s)\n", text.size(), qPrintable(textPath));

    std::vector<TokenId> o200kIds;
    for (const char *name : {"o200k_base", "llama3_1", "gptoss", "deepseek_v3"}) {
        const auto t0 = Clock::now();
        auto tok = store.load(name);
        if (!tok)
            return std::fprintf(stderr, "%s\n", tok.error().message.c_str()), 3;
        const double loadS = seconds(t0);
        const SpecialTokens mode =
            std::string_view(name) == "o200k_base" ? SpecialTokens::AsText : SpecialTokens::Recognize;
        double best = 1e9, cold = 0;
        std::vector<TokenId> ids;
        for (int run = 0; run < 6; ++run) {
            const auto t1 = Clock::now();
            ids = (*tok)->encode(text, mode);
            const double s = seconds(t1);
            if (run == 0)
                cold = s; // first pass fills the piece cache
            best = std::min(best, s);
        }
        std::printf("c++  %-12s %8zu tokens  first pass %6.2f MB/s  best of 5 %6.2f MB/s  (load %.2f s)\n",
                    name, ids.size(), mb / cold, mb / best, loadS);
        if (std::string_view(name) == "o200k_base")
            o200kIds = ids;
    }

    // Node reference: same file, gpt-tokenizer o200k_base.
    const QString src = QStringLiteral(THROUGHLINE_SOURCE_DIR "/tests/tokenizer-ref");
    for (const QString &f :
         {QStringLiteral("package.json"), QStringLiteral("bench.mjs"), QStringLiteral("encode.mjs")}) {
        QFile::remove(refDir + QLatin1Char('/') + f);
        QFile::copy(src + QLatin1Char('/') + f, refDir + QLatin1Char('/') + f);
    }
    QByteArray out;
    if (!QFileInfo::exists(refDir + QStringLiteral("/node_modules/gpt-tokenizer/package.json")) &&
        runProcess(QStringLiteral("npm"),
                   {QStringLiteral("install"), QStringLiteral("--no-audit"), QStringLiteral("--no-fund"),
                    QStringLiteral("--no-package-lock")},
                   refDir, out) != 0)
        return std::fprintf(stderr, "npm install failed in %s\n", qPrintable(refDir)), 3;
    const QString idsPath = refDir + QStringLiteral("/bench-ids.json");
    if (runProcess(QStringLiteral("node"), {QStringLiteral("bench.mjs"), textPath, idsPath}, refDir, out) !=
        0)
        return std::fprintf(stderr, "node bench.mjs failed\n"), 3;
    const auto node = nlohmann::json::parse(out.trimmed().toStdString());
    QFile idsFile(idsPath);
    idsFile.open(QIODevice::ReadOnly);
    const auto nodeIds = nlohmann::json::parse(idsFile.readAll().toStdString()).get<std::vector<TokenId>>();
    std::printf("node gpt-tokenizer o200k_base %8zu tokens  best of 5 %6.2f MB/s\n", nodeIds.size(),
                node["o200k_base"]["mb_per_s"].get<double>());
    std::printf("node @lenml llama3_1          %8d tokens  best of 5 %6.2f MB/s\n",
                node["llama3_1"]["tokens"].get<int>(), node["llama3_1"]["mb_per_s"].get<double>());
    const bool same = nodeIds == o200kIds;
    std::printf("o200k_base ids identical to gpt-tokenizer: %s\n", same ? "yes" : "NO");
    return same ? 0 : 1;
}

int prompts(const TokenizerStore &store, int count)
{
    int failures = 0;
    for (const char *name : {"llama3_1", "gptoss", "deepseek_v3"}) {
        auto tok = store.load(name);
        if (!tok)
            return std::fprintf(stderr, "%s\n", tok.error().message.c_str()), 3;
        for (const int isl : {128, 1000, 8000}) {
            PromptSynth synth(*tok, {isl, 0.0, 1});
            const auto t0 = Clock::now();
            int exact = 0;
            for (int i = 0; i < count; ++i) {
                auto p = synth.make(static_cast<std::uint64_t>(i));
                if (p && static_cast<int>((*tok)->encode(p->text).size()) == isl)
                    ++exact;
            }
            failures += count - exact;
            std::printf("%-12s ISL %5d: %d/%d prompts exact, %.2f ms/prompt\n", name, isl, exact, count,
                        seconds(t0) * 1000 / count);
            std::fflush(stdout);
        }
    }
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QByteArray dir = qgetenv("THROUGHLINE_TOKENIZER_DIR");
    auto store = TokenizerStore::open(dir.isEmpty() ? std::string(THROUGHLINE_TOKENIZER_TEST_CACHE)
                                                    : dir.toStdString());
    if (!store)
        return std::fprintf(stderr, "%s\n", store.error().message.c_str()), 3;
    if (auto st = store->fetchAll([](const std::string &m) { std::printf("%s\n", m.c_str()); }); !st)
        return std::fprintf(stderr, "fetch: %s\n", st.error().message.c_str()), 3;
    if (args.contains(QStringLiteral("--prompts"))) {
        const int i = static_cast<int>(args.indexOf(QStringLiteral("--count")));
        return prompts(*store, i > 0 && i + 1 < args.size() ? args[i + 1].toInt() : 1000);
    }
    return speed(*store);
}
