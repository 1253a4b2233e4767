// Offline unit tests of the tokenizer core on small synthetic tokenizers built in the test: loading
// (both merge forms, added tokens, errors), the merge loop (ranks, ties, long pieces),
// pre-tokenizer translation, UTF-8 repair, tiktoken rank files, tar.gz extraction, the lock file
// and store lookups. The real tokenizers are checked against Node in tst_tokenizerreference.
#include "core/tokenizer/bpetokenizer.h"
#include "core/tokenizer/bytelevel.h"
#include "core/tokenizer/pretokenregex.h"
#include "core/tokenizer/targzextractor.h"
#include "core/tokenizer/tokenizerlock.h"
#include "core/tokenizer/tokenizerstore.h"
#include "core/tokenizer/utf8.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Throughline;
using nlohmann::json;

namespace {

std::string bl(std::string_view bytes)
{
    std::string out;
    for (const char c : bytes)
        Utf8::append(out, ByteLevel::charForByte(static_cast<unsigned char>(c)));
    return out;
}

// A byte-level BPE: ids 0…255 are the bytes, then merges in rank order.
json tinyTokenizer(bool arrayMerges, bool ignoreMerges = false)
{
    json vocab = json::object();
    for (int b = 0; b < 256; ++b)
        vocab[bl(std::string(1, static_cast<char>(b)))] = b;
    const std::vector<std::pair<std::string, std::string>> merges = {
        {"h", "e"}, {"l", "l"},   {"he", "ll"},   {"hell", "o"}, {" ", "w"},
        {"o", "r"}, {" w", "or"}, {" wor", "ld"}, {"l", "d"},    {"a", "a"}};
    int next = 256;
    json m = json::array();
    for (const auto &[a, b] : merges) {
        vocab[bl(a + b)] = next++;
        if (arrayMerges)
            m.push_back(json::array({bl(a), bl(b)}));
        else
            m.push_back(bl(a) + " " + bl(b));
    }
    vocab[bl("hlo")] = next++; // reachable only as a whole word (ignore_merges)
    json j;
    j["version"] = "1.0";
    j["normalizer"] = nullptr;
    j["pre_tokenizer"] = {
        {"type", "Sequence"},
        {"pretokenizers",
         json::array({{{"type", "Split"},
                       {"pattern",
                        {{"Regex", "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
                                   "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"}}},
                       {"behavior", "Isolated"},
                       {"invert", false}},
                      {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}})}};
    j["decoder"] = {{"type", "ByteLevel"}};
    j["added_tokens"] = json::array(
        {{{"id", 400}, {"content", "<|end|>"}, {"special", true}},
         {{"id", 401}, {"content", "<|end|>x"}, {"special", true}},
         {{"id", 402}, {"content", "<tool>"}, {"special", false}, {"rstrip", true}, {"lstrip", true}}});
    j["model"] = {{"type", "BPE"}, {"vocab", vocab}, {"merges", m}, {"ignore_merges", ignoreMerges}};
    return j;
}

std::shared_ptr<const BpeTokenizer> load(const json &j)
{
    auto r = BpeTokenizer::fromHuggingFaceJson(j.dump(), "tiny.json");
    if (!r)
        qWarning("%s", r.error().message.c_str());
    return r ? *r : nullptr;
}

using Ids = std::vector<TokenId>;

// Minimal ustar writer for the extractor test.
void addTarMember(std::string &tar, const std::string &name, const std::string &data)
{
    char h[512] = {};
    std::snprintf(h, 100, "%s", name.c_str());
    std::snprintf(h + 100, 8, "%07o", 0644);
    std::snprintf(h + 124, 12, "%011o", static_cast<unsigned>(data.size()));
    std::snprintf(h + 136, 12, "%011o", 0u);
    h[156] = '0';
    std::memcpy(h + 257, "ustar", 5);
    std::memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (const char c : h)
        sum += static_cast<unsigned char>(c);
    std::snprintf(h + 148, 8, "%06o", sum);
    tar.append(h, 512);
    tar += data;
    tar.append((512 - data.size() % 512) % 512, '\0');
}

} // namespace

class TestBpeTokenizer : public QObject
{
    Q_OBJECT
private slots:
    void mergeFormsAgree();
    void encodeBasics_data();
    void encodeBasics();
    void addedTokens();
    void ignoreMerges();
    void longPiecesUseSameMerges();
    void decodeRoundTrip();
    void loadErrors_data();
    void loadErrors();
    void regexTranslation();
    void regexSplitKeepsGaps();
    void utf8Repair();
    void tiktokenFile();
    void tarGzExtraction();
    void lockFile();
    void storeLookups();
};

void TestBpeTokenizer::mergeFormsAgree()
{
    const auto a = load(tinyTokenizer(false));
    const auto b = load(tinyTokenizer(true));
    QVERIFY(a && b);
    for (const char *s : {"hello world", "hellohello", "aaaa lll", "  hello\n\nworld  "})
        QCOMPARE(a->encode(s), b->encode(s));
}

void TestBpeTokenizer::encodeBasics_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    // Ids follow from the merge list in tinyTokenizer(): he=256 ll=257 hell=258 hello=259 " w"=260
    // or=261 " wor"=262 " world"=263 ld=264 aa=265.
    QTest::newRow("merged word") << u"hello"_qs << QList<int>{259};
    QTest::newRow("two pieces") << u"hello world"_qs << QList<int>{259, 263};
    QTest::newRow("leftmost tie") << u"aaa"_qs << QList<int>{265, 'a'};
    QTest::newRow("rank order") << u"held"_qs << QList<int>{256, 264}; // "l d" (rank 8) after "h e" (0)
    QTest::newRow("empty") << QString() << QList<int>{};
    // Pieces "a", "  " (the whitespace rule leaves the last space to the word), " hello"; no " h" merge.
    QTest::newRow("spaces before word") << u"a   hello"_qs << QList<int>{'a', ' ', ' ', ' ', 259};
}

void TestBpeTokenizer::encodeBasics()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const auto tok = load(tinyTokenizer(false));
    QVERIFY(tok);
    const Ids got = tok->encode(text.toStdString());
    QCOMPARE(got, Ids(ids.begin(), ids.end()));
    QCOMPARE(tok->count(text.toStdString()), static_cast<std::size_t>(ids.size()));
}

void TestBpeTokenizer::addedTokens()
{
    const auto tok = load(tinyTokenizer(false));
    QVERIFY(tok);
    // Longest match wins ("<|end|>x" over "<|end|>"), text around is encoded normally.
    QCOMPARE(tok->encode("hello<|end|>hello"), (Ids{259, 400, 259}));
    QCOMPARE(tok->encode("hello<|end|>xhello"), (Ids{259, 401, 259}));
    // lstrip/rstrip remove whitespace next to the token.
    QCOMPARE(tok->encode("hello  <tool>  hello"), (Ids{259, 402, 259}));
    // As text: the special token's characters are ordinary bytes.
    const Ids asText = tok->encode("<|end|>", SpecialTokens::AsText);
    QVERIFY(std::find(asText.begin(), asText.end(), 400) == asText.end());
    QCOMPARE(tok->decode(asText), std::string("<|end|>"));
    QVERIFY(tok->isAdded(400));
    QVERIFY(!tok->isAdded(259));
    QCOMPARE(tok->decode(Ids{259, 400}), std::string("hello<|end|>"));
    // Ordinary ids exclude added tokens.
    const auto &ord = tok->ordinaryIds();
    QVERIFY(std::find(ord.begin(), ord.end(), 400) == ord.end());
    QVERIFY(std::find(ord.begin(), ord.end(), 259) != ord.end());
}

void TestBpeTokenizer::ignoreMerges()
{
    const auto plain = load(tinyTokenizer(false, false));
    const auto direct = load(tinyTokenizer(false, true));
    QVERIFY(plain && direct);
    QCOMPARE(plain->encode("hlo"), (Ids{'h', 'l', 'o'}));
    QCOMPARE(direct->encode("hlo"), (Ids{266}));
}

void TestBpeTokenizer::longPiecesUseSameMerges()
{
    const auto tok = load(tinyTokenizer(false));
    QVERIFY(tok);
    // One piece of 5·k letters: short pieces use the quadratic loop, long ones the heap loop.
    for (const int k : {1, 5, 9, 10, 30, 200}) {
        std::string s;
        for (int i = 0; i < k; ++i)
            s += "hello";
        const Ids ids = tok->encode(s);
        QCOMPARE(ids, Ids(static_cast<std::size_t>(k), 259));
    }
    std::string spaces(5000, ' ');
    spaces += "x";
    QCOMPARE(tok->decode(tok->encode(spaces)), spaces);
    std::string as(301, 'a');
    Ids expect(150, 265);
    expect.push_back('a');
    QCOMPARE(tok->encode(as), expect);
}

void TestBpeTokenizer::decodeRoundTrip()
{
    const auto tok = load(tinyTokenizer(true));
    QVERIFY(tok);
    for (const char *s :
         {"héllo wörld 🙂", "日本語 テキスト", "tab\tnew\nline\r\n", "<|end|> <|end|>x y", "'s 'LL 'Re"})
        QCOMPARE(tok->decode(tok->encode(s)), std::string(s));
    // Invalid UTF-8 is repaired with U+FFFD before encoding, as a JavaScript string would be.
    // <tool> strips the spaces around it (lstrip/rstrip), so it is not part of the lossless set.
    QCOMPARE(tok->decode(tok->encode("a\xff"
                                     "b")),
             std::string("a\xEF\xBF\xBD"
                         "b"));
}

void TestBpeTokenizer::loadErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("needle");
    json j = tinyTokenizer(false);
    QTest::newRow("not json") << QByteArray("{\"model\": ") << u"not valid JSON"_qs;
    json noModel = j;
    noModel.erase("model");
    QTest::newRow("no model") << QByteArray::fromStdString(noModel.dump()) << u"\"model\""_qs;
    json unigram = j;
    unigram["model"]["type"] = "Unigram";
    QTest::newRow("unigram") << QByteArray::fromStdString(unigram.dump()) << u"model.type"_qs;
    json badMerge = j;
    badMerge["model"]["merges"][1] = "zz qq";
    QTest::newRow("bad merge") << QByteArray::fromStdString(badMerge.dump()) << u"model.merges[1]"_qs;
    json nfc = j;
    nfc["normalizer"] = {{"type", "NFC"}};
    QTest::newRow("normalizer") << QByteArray::fromStdString(nfc.dump()) << u"normalizer of type \"NFC\""_qs;
    json badRegex = j;
    badRegex["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "([a-";
    QTest::newRow("bad regex") << QByteArray::fromStdString(badRegex.dump()) << u"pre_tokenizer step 0"_qs;
    json fallback = j;
    fallback["model"]["byte_fallback"] = true;
    QTest::newRow("byte fallback") << QByteArray::fromStdString(fallback.dump()) << u"byte_fallback"_qs;
}

void TestBpeTokenizer::loadErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, needle);
    auto r = BpeTokenizer::fromHuggingFaceJson(json.toStdString(), "broken.json");
    QVERIFY(!r);
    const QString msg = QString::fromStdString(r.error().message);
    QVERIFY2(msg.startsWith(u"broken.json: "_qs), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
}

void TestBpeTokenizer::regexTranslation()
{
    auto t = PreTokenRegex::translateJsPattern(R"(\s+(?!\S)|[^\s\p{L}]|(?i:'s|'t|'re|'ve|'m|'ll|'d)|\d)");
    QVERIFY(t);
    QVERIFY(t->find("\\x{FEFF}") != std::string::npos);      // JS \s includes U+FEFF
    QVERIFY(t->find("[^\\t\\n") != std::string::npos);       // \S outside a class
    QVERIFY(t->find("(?i:") == std::string::npos);           // replaced like transformers.js
    QVERIFY(t->find("[0-9]") != std::string::npos);          // JS \d is ASCII only
    QVERIFY(!PreTokenRegex::translateJsPattern(R"([^\S])")); // no PCRE2 equivalent
}

void TestBpeTokenizer::regexSplitKeepsGaps()
{
    auto re = PreTokenRegex::compile(TiktokenSpec::o200kBase().pattern);
    QVERIFY(re);
    const std::string text = "Hello  world's\u00a0\u00a0x\n\n\t123456";
    std::vector<TextSpan> spans;
    (*re)->split(text, {0, text.size()}, spans);
    std::vector<std::string> pieces;
    for (const auto &s : spans)
        pieces.push_back(text.substr(s.begin, s.end - s.begin));
    const std::vector<std::string> expect = {"Hello", " ",  " world's", "\u00a0", "\u00a0x",
                                             "\n\n",  "\t", "123",      "456"};
    QCOMPARE(pieces, expect);
    // Only matches: a pattern that matches digits leaves the rest as gap pieces.
    auto digits = PreTokenRegex::compile(R"(\p{N}{1,3})");
    QVERIFY(digits);
    spans.clear();
    const std::string t2 = "ab12345cd";
    (*digits)->split(t2, {0, t2.size()}, spans);
    QCOMPARE(spans.size(), std::size_t(4));
    QCOMPARE(t2.substr(spans[1].begin, spans[1].end - spans[1].begin), std::string("123"));
}

void TestBpeTokenizer::utf8Repair()
{
    QVERIFY(Utf8::isValid("h\xC3\xA9"));
    QVERIFY(!Utf8::isValid("\xED\xA0\x80"));                               // surrogate
    QVERIFY(!Utf8::isValid("\xC0\xAF"));                                   // overlong
    QCOMPARE(Utf8::sanitize("\xF0\x9F\x98"), std::string("\xEF\xBF\xBD")); // one maximal subpart
    QCOMPARE(Utf8::sanitize("a\xFF\xFE"
                            "b"),
             std::string("a\xEF\xBF\xBD\xEF\xBF\xBD"
                         "b"));
    QCOMPARE(Utf8::sanitize("ok"), std::string("ok"));
}

void TestBpeTokenizer::tiktokenFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"tiny.tiktoken"_qs);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    int rank = 0;
    for (int b = 0; b < 256; ++b)
        f.write(QByteArray(1, static_cast<char>(b)).toBase64() + ' ' + QByteArray::number(rank++) + '\n');
    for (const char *t : {"he", "ll", "hell", "hello", " w", "or", " wor", " world"})
        f.write(QByteArray(t).toBase64() + ' ' + QByteArray::number(rank++) + '\n');
    f.close();
    TiktokenSpec spec = TiktokenSpec::o200kBase();
    spec.specials = {{"<|endoftext|>", 1000}};
    auto tok = BpeTokenizer::loadTiktoken(path.toStdString(), spec);
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    QCOMPARE((*tok)->encode("hello world"), (Ids{259, 263}));
    QCOMPARE((*tok)->encode("hello<|endoftext|>"), (Ids{259, 1000}));
    QCOMPARE((*tok)->encode("<|endoftext|>", SpecialTokens::AsText).size(), std::size_t(13));
    QCOMPARE((*tok)->decode((*tok)->encode("hello world")), std::string("hello world"));

    QVERIFY(f.open(QIODevice::Append));
    f.write("not-a-line\n");
    f.close();
    auto bad = BpeTokenizer::loadTiktoken(path.toStdString(), spec);
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.find("tiny.tiktoken:265") != std::string::npos, bad.error().message.c_str());
}

void TestBpeTokenizer::tarGzExtraction()
{
    QTemporaryDir dir;
    std::string tar;
    addTarMember(tar, "package/readme.md", "hello");
    const std::string big(70000, 'x'); // spans several read chunks
    addTarMember(tar, "package/models/tokenizer.json", big);
    tar.append(1024, '\0');
    const std::string archive = dir.filePath(u"p.tgz"_qs).toStdString();
    gzFile gz = gzopen(archive.c_str(), "wb");
    QVERIFY(gz);
    QCOMPARE(gzwrite(gz, tar.data(), static_cast<unsigned>(tar.size())), static_cast<int>(tar.size()));
    gzclose(gz);

    const std::string dest = dir.filePath(u"tokenizer.json"_qs).toStdString();
    auto st = TarGzExtractor::extract(archive, {{"package/models/tokenizer.json", dest}});
    QVERIFY2(st, st ? "" : st.error().message.c_str());
    QFile out(QString::fromStdString(dest));
    QVERIFY(out.open(QIODevice::ReadOnly));
    QCOMPARE(out.readAll().toStdString(), big);

    auto missing = TarGzExtractor::extract(archive, {{"package/data/none.txt", dest + "2"}});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, ErrorCode::NotFound);
    QVERIFY(missing.error().message.find("package/data/none.txt") != std::string::npos);
}

void TestBpeTokenizer::lockFile()
{
    auto lock = TokenizerLock::loadBuiltin();
    QVERIFY2(lock, lock ? "" : lock.error().message.c_str());
    QCOMPARE(lock->packages().size(), std::size_t(4));
    for (const char *name : {"llama3_1", "gptoss", "deepseek_v3", "o200k_base", "cl100k_base"})
        QVERIFY2(lock->tokenizer(name), name);
    for (const auto &p : lock->packages())
        QVERIFY(p.integrity.rfind("sha512-", 0) == 0);

    auto bad = TokenizerLock::parse(R"({"schema": "throughline.tokenizers-lock/1", "packages": [{"dir": "x",
        "name": "n", "version": "1", "integrity": "sha1-abc", "extract": {"a": "b"}}], "tokenizers": {}})",
                                    "lock.json");
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.find("lock.json: /packages/0/integrity") == 0, bad.error().message.c_str());
}

void TestBpeTokenizer::storeLookups()
{
    QTemporaryDir dir;
    auto store = TokenizerStore::open(dir.path().toStdString());
    QVERIFY(store);
    // Every model of the catalog's tokenizer column resolves to a pinned tokenizer.
    QFile csv(u":/catalog/models_extra.csv"_qs);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    int models = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cols = lines[i].split(',');
        if (cols.size() < 2)
            continue;
        auto name = store->tokenizerName(cols[0].toStdString());
        QVERIFY2(name, cols[0].constData());
        QCOMPARE(*name, cols[1].toStdString());
        QVERIFY(store->lock().tokenizer(*name));
        ++models;
    }
    QVERIFY(models >= 4);
    QCOMPARE(*store->tokenizerName("GPT-OSS-120B"), std::string("gptoss")); // case-insensitive
    auto unknown = store->tokenizerName("no-such-model");
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.find("llama3_1") != std::string::npos);
    // Empty cache: a clear hint instead of a crash.
    auto notFetched = store->load("Llama-3.3-70B-Instruct");
    QVERIFY(!notFetched);
    QCOMPARE(notFetched.error().code, ErrorCode::NotFound);
    QVERIFY2(notFetched.error().message.find("tokenizers fetch") != std::string::npos,
             notFetched.error().message.c_str());
    QVERIFY(!store->isFetched(store->lock().packages().front()));
    // A path to a tokenizer.json is loaded directly.
    const QString path = dir.filePath(u"tokenizer.json"_qs);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(tinyTokenizer(true).dump()));
    f.close();
    auto tok = store->load(path.toStdString());
    QVERIFY2(tok, tok ? "" : tok.error().message.c_str());
    QCOMPARE((*tok)->encode("hello"), (Ids{259}));
    auto again = store->load(path.toStdString());
    QVERIFY(again && again->get() == tok->get()); // memoised
}

QTEST_GUILESS_MAIN(TestBpeTokenizer)
#include "tst_bpetokenizer.moc"
