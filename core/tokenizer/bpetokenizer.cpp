#include "core/tokenizer/bpetokenizer.h"

#include "core/tokenizer/bytelevel.h"
#include "core/tokenizer/mergetable.h"
#include "core/tokenizer/pretokenregex.h"
#include "core/tokenizer/utf8.h"

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <mutex>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace Throughline {

namespace {

constexpr std::uint8_t kKnown = 1;
constexpr std::uint8_t kAdded = 2;
constexpr std::uint32_t kNoRank = std::numeric_limits<std::uint32_t>::max();
// Pieces longer than this go through the heap-based merge loop (O(n log n)); shorter ones use the
// quadratic scan, which is faster for the short pieces that make up nearly all text.
constexpr std::size_t kSmallPiece = 48;
// Merge results of pieces up to this many bytes are cached (as transformers.js: 256 chars).
constexpr std::size_t kCacheMaxBytes = 256;
constexpr std::size_t kCacheMaxEntries = 1 << 17;

// GPT-2's pattern, used when a ByteLevel pre-tokenizer has use_regex = true.
constexpr const char *kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// JavaScript's String.prototype.trim whitespace set (WhiteSpace + LineTerminator).
bool isJsSpace(char32_t c)
{
    return c == 0x09 || c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x20 || c == 0xA0 ||
           c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

std::size_t trimEndPos(std::string_view text, std::size_t begin, std::size_t end)
{
    // Walk back code point by code point.
    while (end > begin) {
        std::size_t s = end - 1;
        while (s > begin && (static_cast<unsigned char>(text[s]) & 0xC0) == 0x80)
            --s;
        std::size_t i = s;
        if (!isJsSpace(Utf8::next(text, i)))
            break;
        end = s;
    }
    return end;
}

std::size_t trimStartPos(std::string_view text, std::size_t begin, std::size_t end)
{
    while (begin < end) {
        std::size_t i = begin;
        if (!isJsSpace(Utf8::next(text, i)))
            break;
        begin = i;
    }
    return begin;
}

struct AddedToken {
    std::string content;
    TokenId id = 0;
    bool lstrip = false;
    bool rstrip = false;
};

// Byte trie over added-token texts: longest match at each position (transformers.js DictionarySplitter).
class AddedTrie
{
public:
    AddedTrie() { m_root.fill(-1); }
    void insert(std::string_view word, int tokenIndex)
    {
        if (word.empty())
            return;
        int node = m_root[static_cast<unsigned char>(word[0])];
        if (node < 0) {
            node = newNode();
            m_root[static_cast<unsigned char>(word[0])] = node;
        }
        for (std::size_t i = 1; i < word.size(); ++i) {
            const auto b = static_cast<unsigned char>(word[i]);
            int child = childOf(node, b);
            if (child < 0) {
                child = newNode();
                m_nodes[node].children.emplace_back(b, child);
            }
            node = child;
        }
        m_nodes[node].token = tokenIndex;
    }
    bool empty() const { return m_nodes.empty(); }
    // Longest word starting at text[i]: (token index, length) or (-1, 0).
    std::pair<int, std::size_t> match(std::string_view text, std::size_t i) const
    {
        int node = m_root[static_cast<unsigned char>(text[i])];
        std::pair<int, std::size_t> best{-1, 0};
        std::size_t j = i + 1;
        while (node >= 0) {
            if (m_nodes[node].token >= 0)
                best = {m_nodes[node].token, j - i};
            if (j >= text.size())
                break;
            node = childOf(node, static_cast<unsigned char>(text[j]));
            ++j;
        }
        return best;
    }

private:
    struct Node {
        std::vector<std::pair<unsigned char, int>> children;
        int token = -1;
    };
    int newNode()
    {
        m_nodes.emplace_back();
        return static_cast<int>(m_nodes.size() - 1);
    }
    int childOf(int node, unsigned char b) const
    {
        for (const auto &[c, n] : m_nodes[node].children)
            if (c == b)
                return n;
        return -1;
    }
    std::array<int, 256> m_root{};
    std::vector<Node> m_nodes;
};

struct Section {
    std::size_t begin = 0;
    std::size_t end = 0;
    int added = -1; // index into Impl::added, or -1 for plain text
};

} // namespace

struct BpeTokenizer::Impl {
    std::array<TokenId, 256> byteIds{};
    std::unordered_map<std::string, TokenId, StringHash, std::equal_to<>> vocab; // bytes → id (ordinary)
    MergeTable merges;
    std::vector<std::shared_ptr<const PreTokenRegex>> splits; // applied in sequence
    std::vector<AddedToken> added;
    AddedTrie trie;

    mutable std::mutex cacheMutex;
    mutable std::unordered_map<std::string, std::vector<TokenId>, StringHash, std::equal_to<>> cache;
};

BpeTokenizer::BpeTokenizer()
    : m_d(std::make_unique<Impl>())
{
}
BpeTokenizer::~BpeTokenizer() = default;

TiktokenSpec TiktokenSpec::o200kBase()
{
    TiktokenSpec s;
    s.name = "o200k_base";
    s.pattern =
        R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    s.specials = {{"<|endoftext|>", 199999},  {"<|fim_prefix|>", 200000}, {"<|fim_middle|>", 200001},
                  {"<|fim_suffix|>", 200002}, {"<|im_start|>", 200003},   {"<|im_end|>", 200004},
                  {"<|im_sep|>", 200005},     {"<|endofprompt|>", 200006}};
    return s;
}

TiktokenSpec TiktokenSpec::cl100kBase()
{
    TiktokenSpec s;
    s.name = "cl100k_base";
    s.pattern =
        R"('(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s)";
    s.specials = {{"<|endoftext|>", 100257},  {"<|fim_prefix|>", 100258}, {"<|fim_middle|>", 100259},
                  {"<|fim_suffix|>", 100260}, {"<|im_start|>", 100264},   {"<|im_end|>", 100265},
                  {"<|im_sep|>", 100266},     {"<|endofprompt|>", 100276}};
    return s;
}

std::optional<TiktokenSpec> TiktokenSpec::byName(std::string_view name)
{
    if (name == "o200k_base")
        return o200kBase();
    if (name == "cl100k_base")
        return cl100kBase();
    return std::nullopt;
}

namespace {

Result<std::string> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError(ErrorCode::NotFound, "cannot open tokenizer file " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return makeError(ErrorCode::Io, "cannot read tokenizer file " + path);
    return ss.str();
}

} // namespace

Result<std::shared_ptr<const BpeTokenizer>> BpeTokenizer::loadHuggingFace(const std::string &path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return fromHuggingFaceJson(*text, path);
}

Result<std::shared_ptr<const BpeTokenizer>> BpeTokenizer::fromHuggingFaceJson(std::string_view jsonText,
                                                                              const std::string &sourceName)
{
    using nlohmann::json;
    const auto fail = [&](ErrorCode code, const std::string &msg) {
        return makeError(code, sourceName + ": " + msg);
    };
    json j;
    try {
        j = json::parse(jsonText);
    } catch (const json::parse_error &e) {
        return fail(ErrorCode::InvalidInput, std::string("not valid JSON (") + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("model") || !j["model"].is_object())
        return fail(ErrorCode::InvalidInput, "missing object \"model\"");
    const json &model = j["model"];
    if (model.value("type", std::string("BPE")) != "BPE")
        return fail(ErrorCode::Unsupported, "model.type \"" + model.value("type", std::string()) +
                                                "\" is not supported (only byte-level BPE)");
    if (model.contains("byte_fallback") && model["byte_fallback"].is_boolean() &&
        model["byte_fallback"].get<bool>())
        return fail(ErrorCode::Unsupported,
                    "model.byte_fallback = true is not supported (SentencePiece-style BPE)");
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (model.contains(key) && model[key].is_string() && !model[key].get<std::string>().empty())
            return fail(ErrorCode::Unsupported, std::string("model.") + key + " is not supported");
    }
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return fail(ErrorCode::InvalidInput, "missing object model.vocab");
    if (!model.contains("merges") || !model["merges"].is_array())
        return fail(ErrorCode::InvalidInput, "missing array model.merges");

    // Normalizer: only "none" (null or an empty Sequence) — the shipped models have none.
    if (j.contains("normalizer") && !j["normalizer"].is_null()) {
        const json &n = j["normalizer"];
        const bool emptySequence = n.value("type", std::string()) == "Sequence" &&
                                   n.contains("normalizers") && n["normalizers"].is_array() &&
                                   n["normalizers"].empty();
        if (!emptySequence)
            return fail(ErrorCode::Unsupported,
                        "normalizer of type \"" + n.value("type", std::string("?")) + "\" is not supported");
    }

    std::shared_ptr<BpeTokenizer> tok(new BpeTokenizer);
    Impl &d = *tok->m_d;
    tok->m_name = sourceName;
    tok->m_ignoreMerges = model.value("ignore_merges", false);

    // Pre-tokenizer: a Split, a ByteLevel or a Sequence of them.
    bool sawByteLevel = false;
    std::vector<const json *> steps;
    if (j.contains("pre_tokenizer") && !j["pre_tokenizer"].is_null()) {
        const json &p = j["pre_tokenizer"];
        if (p.value("type", std::string()) == "Sequence") {
            if (!p.contains("pretokenizers") || !p["pretokenizers"].is_array())
                return fail(ErrorCode::InvalidInput, "pre_tokenizer.pretokenizers is missing");
            for (const json &s : p["pretokenizers"])
                steps.push_back(&s);
        } else {
            steps.push_back(&p);
        }
    }
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const json &s = *steps[k];
        const std::string where = "pre_tokenizer step " + std::to_string(k);
        const std::string type = s.value("type", std::string());
        if (type == "Split") {
            if (!s.contains("pattern") || !s["pattern"].is_object())
                return fail(ErrorCode::InvalidInput, where + ": Split without pattern");
            const std::string behavior = s.value("behavior", std::string("Isolated"));
            if (behavior != "Isolated" || s.value("invert", false))
                return fail(ErrorCode::Unsupported, where + ": Split behaviour \"" + behavior +
                                                        "\"/invert is not supported (only Isolated)");
            std::string pattern;
            if (s["pattern"].contains("Regex")) {
                pattern = s["pattern"]["Regex"].get<std::string>();
            } else if (s["pattern"].contains("String")) {
                // Escape the literal for the regex engine.
                for (const char c : s["pattern"]["String"].get<std::string>()) {
                    if (std::string_view("\\^$.|?*+()[]{}/-").find(c) != std::string_view::npos)
                        pattern += '\\';
                    pattern += c;
                }
            } else {
                return fail(ErrorCode::InvalidInput, where + ": pattern has neither Regex nor String");
            }
            auto re = PreTokenRegex::compile(pattern);
            if (!re)
                return fail(re.error().code, where + ": " + re.error().message);
            d.splits.push_back(*re);
        } else if (type == "ByteLevel") {
            if (s.value("add_prefix_space", false))
                return fail(ErrorCode::Unsupported,
                            where + ": ByteLevel add_prefix_space = true is not supported");
            if (s.value("use_regex", true)) {
                auto re = PreTokenRegex::compile(kGpt2Pattern);
                if (!re)
                    return re.error();
                d.splits.push_back(*re);
            }
            sawByteLevel = true;
        } else {
            return fail(ErrorCode::Unsupported,
                        where + ": pre-tokenizer type \"" + type + "\" is not supported");
        }
    }
    if (!sawByteLevel)
        return fail(ErrorCode::Unsupported,
                    "pre_tokenizer has no ByteLevel step: not a byte-level BPE tokenizer");
    if (j.contains("decoder") && !j["decoder"].is_null() &&
        j["decoder"].value("type", std::string()) != "ByteLevel")
        return fail(ErrorCode::Unsupported,
                    "decoder type \"" + j["decoder"].value("type", std::string()) + "\" is not supported");

    // Vocabulary: byte-level strings → bytes.
    std::unordered_map<std::string, TokenId, StringHash, std::equal_to<>> byString; // vocab string → id
    byString.reserve(model["vocab"].size() * 2);
    TokenId maxId = -1;
    for (const auto &[key, value] : model["vocab"].items()) {
        if (!value.is_number_integer() || value.get<long long>() < 0 || value.get<long long>() > 16'000'000)
            return fail(ErrorCode::InvalidInput, "model.vocab[\"" + key + "\"] is not a valid id");
        const auto id = static_cast<TokenId>(value.get<long long>());
        byString[key] = id;
        maxId = std::max(maxId, id);
    }
    std::vector<AddedToken> added;
    if (j.contains("added_tokens") && j["added_tokens"].is_array()) {
        std::size_t k = 0;
        for (const json &a : j["added_tokens"]) {
            if (!a.contains("id") || !a["id"].is_number_integer() || !a.contains("content") ||
                !a["content"].is_string())
                return fail(ErrorCode::InvalidInput,
                            "added_tokens[" + std::to_string(k) + "] needs id and content");
            AddedToken t;
            t.id = a["id"].get<TokenId>();
            t.content = a["content"].get<std::string>();
            t.lstrip = a.value("lstrip", false);
            t.rstrip = a.value("rstrip", false);
            maxId = std::max(maxId, t.id);
            added.push_back(std::move(t));
            ++k;
        }
    }
    tok->m_tokens.assign(static_cast<std::size_t>(maxId + 1), std::string());
    tok->m_flags.assign(static_cast<std::size_t>(maxId + 1), 0);
    d.byteIds.fill(-1);
    d.vocab.reserve(byString.size() * 2);
    for (const auto &[str, id] : byString) {
        auto bytes = ByteLevel::toBytes(str);
        if (!bytes) {
            // Not byte-level (an added token's text kept in the vocab): decodable, never merged into.
            tok->m_tokens[id] = str;
            tok->m_flags[id] = kKnown;
            continue;
        }
        if (bytes->size() == 1)
            d.byteIds[static_cast<unsigned char>((*bytes)[0])] = id;
        tok->m_tokens[id] = *bytes;
        tok->m_flags[id] = kKnown;
        d.vocab.emplace(*bytes, id);
    }
    for (int b = 0; b < 256; ++b) {
        if (d.byteIds[b] < 0)
            return fail(ErrorCode::InvalidInput, "model.vocab has no token for byte " + std::to_string(b) +
                                                     ": not a complete byte-level vocabulary");
    }
    for (std::size_t k = 0; k < added.size(); ++k) {
        const AddedToken &t = added[k];
        tok->m_tokens[t.id] = t.content;
        tok->m_flags[t.id] = kKnown | kAdded;
        d.trie.insert(t.content, static_cast<int>(k));
    }
    d.added = std::move(added);

    // Merges: "a b" strings (tokenizers < 0.20) or ["a", "b"] pairs; rank = position.
    const json &merges = model["merges"];
    d.merges.reserve(merges.size());
    for (std::size_t r = 0; r < merges.size(); ++r) {
        const json &m = merges[r];
        std::string left, right;
        if (m.is_string()) {
            const std::string &s = m.get_ref<const std::string &>();
            const std::size_t sp = s.find(' ');
            if (sp == std::string::npos)
                return fail(ErrorCode::InvalidInput, "model.merges[" + std::to_string(r) + "] \"" + s +
                                                         "\" is not of the form \"a b\"");
            left = s.substr(0, sp);
            // JS split(" ", 2): the right part ends at the next space, if any.
            const std::size_t sp2 = s.find(' ', sp + 1);
            right = s.substr(sp + 1, sp2 == std::string::npos ? std::string::npos : sp2 - sp - 1);
        } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            left = m[0].get<std::string>();
            right = m[1].get<std::string>();
        } else {
            return fail(ErrorCode::InvalidInput,
                        "model.merges[" + std::to_string(r) + "] is neither \"a b\" nor [a, b]");
        }
        const auto l = byString.find(left);
        const auto rr = byString.find(right);
        const auto merged = byString.find(left + right);
        if (l == byString.end() || rr == byString.end() || merged == byString.end())
            return fail(ErrorCode::InvalidInput, "model.merges[" + std::to_string(r) + "] (\"" + left +
                                                     "\", \"" + right +
                                                     "\") refers to a token missing from model.vocab");
        d.merges.set(l->second, rr->second, static_cast<std::uint32_t>(r), merged->second);
    }
    tok->finishLoading();
    return std::shared_ptr<const BpeTokenizer>(std::move(tok));
}

Result<std::shared_ptr<const BpeTokenizer>> BpeTokenizer::loadTiktoken(const std::string &path,
                                                                       const TiktokenSpec &spec)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    std::shared_ptr<BpeTokenizer> tok(new BpeTokenizer);
    Impl &d = *tok->m_d;
    tok->m_name = spec.name.empty() ? path : spec.name;
    tok->m_ignoreMerges = true; // tiktoken looks a whole piece up first
    auto re = PreTokenRegex::compile(spec.pattern);
    if (!re)
        return makeError(re.error().code, spec.name + ": " + re.error().message);
    d.splits.push_back(*re);

    std::string_view all(*text);
    std::size_t lineNo = 0;
    TokenId maxId = -1;
    std::vector<std::pair<std::string, TokenId>> entries;
    entries.reserve(all.size() / 12);
    std::size_t pos = 0;
    while (pos < all.size()) {
        std::size_t eol = all.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = all.size();
        std::string_view line = all.substr(pos, eol - pos);
        pos = eol + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        const std::size_t sp = line.find(' ');
        long long rank = -1;
        if (sp != std::string_view::npos) {
            try {
                rank = std::stoll(std::string(line.substr(sp + 1)));
            } catch (...) {
                rank = -1;
            }
        }
        if (sp == std::string_view::npos || rank < 0 || rank > 16'000'000)
            return makeError(ErrorCode::InvalidInput,
                             path + ":" + std::to_string(lineNo) + ": expected \"<base64> <rank>\"");
        const QByteArray raw = QByteArray::fromBase64(QByteArray(line.data(), static_cast<qsizetype>(sp)),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (raw.isEmpty())
            return makeError(ErrorCode::InvalidInput,
                             path + ":" + std::to_string(lineNo) + ": invalid base64 token");
        entries.emplace_back(std::string(raw.constData(), static_cast<std::size_t>(raw.size())),
                             static_cast<TokenId>(rank));
        maxId = std::max(maxId, static_cast<TokenId>(rank));
    }
    for (const auto &[text2, id] : spec.specials)
        maxId = std::max(maxId, id);
    tok->m_tokens.assign(static_cast<std::size_t>(maxId + 1), std::string());
    tok->m_flags.assign(static_cast<std::size_t>(maxId + 1), 0);
    d.byteIds.fill(-1);
    d.vocab.reserve(entries.size() * 2);
    for (auto &[bytes, id] : entries) {
        if (tok->m_flags[id] != 0)
            return makeError(ErrorCode::InvalidInput,
                             path + ": rank " + std::to_string(id) + " appears twice");
        if (bytes.size() == 1)
            d.byteIds[static_cast<unsigned char>(bytes[0])] = id;
        tok->m_tokens[id] = bytes;
        tok->m_flags[id] = kKnown;
        d.vocab.emplace(std::move(bytes), id);
    }
    for (int b = 0; b < 256; ++b) {
        if (d.byteIds[b] < 0)
            return makeError(ErrorCode::InvalidInput, path + ": no token for byte " + std::to_string(b));
    }
    // tiktoken merges implicitly: adjacent parts (always tokens) merge into their concatenation when
    // it is a token, lowest rank first. Enumerate every split of every token into two tokens.
    d.merges.reserve(entries.size() * 3);
    for (TokenId id = 0; id < static_cast<TokenId>(tok->m_tokens.size()); ++id) {
        const std::string &t = tok->m_tokens[id];
        if (t.size() < 2)
            continue;
        const std::string_view tv(t);
        for (std::size_t k = 1; k < t.size(); ++k) {
            const auto l = d.vocab.find(tv.substr(0, k));
            if (l == d.vocab.end())
                continue;
            const auto r = d.vocab.find(tv.substr(k));
            if (r == d.vocab.end())
                continue;
            d.merges.set(l->second, r->second, static_cast<std::uint32_t>(id), id);
        }
    }
    for (std::size_t k = 0; k < spec.specials.size(); ++k) {
        const auto &[content, id] = spec.specials[k];
        AddedToken t;
        t.content = content;
        t.id = id;
        tok->m_tokens[id] = content;
        tok->m_flags[id] = kKnown | kAdded;
        d.trie.insert(content, static_cast<int>(k));
        d.added.push_back(std::move(t));
    }
    tok->finishLoading();
    return std::shared_ptr<const BpeTokenizer>(std::move(tok));
}

void BpeTokenizer::finishLoading()
{
    m_ordinary.clear();
    for (std::size_t id = 0; id < m_flags.size(); ++id) {
        if (m_flags[id] == kKnown && m_d->vocab.count(std::string_view(m_tokens[id])))
            m_ordinary.push_back(static_cast<TokenId>(id));
    }
}

bool BpeTokenizer::isKnown(TokenId id) const
{
    return id >= 0 && static_cast<std::size_t>(id) < m_flags.size() && (m_flags[id] & kKnown);
}

bool BpeTokenizer::isAdded(TokenId id) const
{
    return id >= 0 && static_cast<std::size_t>(id) < m_flags.size() && (m_flags[id] & kAdded);
}

std::vector<std::pair<std::string, TokenId>> BpeTokenizer::addedTokens() const
{
    std::vector<std::pair<std::string, TokenId>> out;
    for (const AddedToken &t : m_d->added)
        out.emplace_back(t.content, t.id);
    return out;
}

std::string_view BpeTokenizer::tokenBytes(TokenId id) const
{
    return isKnown(id) ? std::string_view(m_tokens[id]) : std::string_view();
}

std::string BpeTokenizer::decode(std::span<const TokenId> ids) const
{
    std::string out;
    out.reserve(ids.size() * 4);
    for (const TokenId id : ids) {
        if (isKnown(id))
            out += m_tokens[id];
    }
    return out;
}

std::vector<TokenId> BpeTokenizer::encode(std::string_view text, SpecialTokens mode) const
{
    std::vector<TokenId> out;
    out.reserve(text.size() / 3 + 4);
    encodeInto(text, mode, out);
    return out;
}

std::size_t BpeTokenizer::count(std::string_view text, SpecialTokens mode) const
{
    thread_local std::vector<TokenId> scratch;
    scratch.clear();
    encodeInto(text, mode, scratch);
    return scratch.size();
}

void BpeTokenizer::encodeInto(std::string_view text, SpecialTokens mode, std::vector<TokenId> &out) const
{
    std::string repaired;
    if (!Utf8::isValid(text)) {
        repaired = Utf8::sanitize(text);
        text = repaired;
    }
    if (mode == SpecialTokens::AsText || m_d->trie.empty()) {
        encodeSection(text, 0, text.size(), out);
        return;
    }
    // Split out added tokens (longest match, left to right), then honour lstrip/rstrip.
    std::vector<Section> sections;
    std::size_t start = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto [token, len] = m_d->trie.match(text, i);
        if (token < 0) {
            ++i;
            continue;
        }
        if (i > start)
            sections.push_back({start, i, -1});
        sections.push_back({i, i + len, token});
        i += len;
        start = i;
    }
    if (start < text.size())
        sections.push_back({start, text.size(), -1});
    for (std::size_t k = 0; k < sections.size(); ++k) {
        if (sections[k].added < 0)
            continue;
        const AddedToken &t = m_d->added[static_cast<std::size_t>(sections[k].added)];
        if (t.lstrip && k > 0 && sections[k - 1].added < 0)
            sections[k - 1].end = trimEndPos(text, sections[k - 1].begin, sections[k - 1].end);
        if (t.rstrip && k + 1 < sections.size() && sections[k + 1].added < 0)
            sections[k + 1].begin = trimStartPos(text, sections[k + 1].begin, sections[k + 1].end);
    }
    for (const Section &s : sections) {
        if (s.added >= 0)
            out.push_back(m_d->added[static_cast<std::size_t>(s.added)].id);
        else if (s.end > s.begin)
            encodeSection(text, s.begin, s.end, out);
    }
}

void BpeTokenizer::encodeSection(std::string_view text, std::size_t begin, std::size_t end,
                                 std::vector<TokenId> &out) const
{
    thread_local std::vector<TextSpan> pieces;
    thread_local std::vector<TextSpan> next;
    pieces.clear();
    pieces.push_back({begin, end});
    for (const auto &re : m_d->splits) {
        next.clear();
        for (const TextSpan &p : pieces)
            re->split(text, p, next);
        pieces.swap(next);
    }
    for (const TextSpan &p : pieces)
        encodePiece(text.substr(p.begin, p.end - p.begin), out);
}

void BpeTokenizer::encodePiece(std::string_view piece, std::vector<TokenId> &out) const
{
    if (piece.empty())
        return;
    if (piece.size() == 1) {
        out.push_back(m_d->byteIds[static_cast<unsigned char>(piece[0])]);
        return;
    }
    if (m_ignoreMerges) {
        const auto it = m_d->vocab.find(piece);
        if (it != m_d->vocab.end()) {
            out.push_back(it->second);
            return;
        }
    }
    if (piece.size() > kCacheMaxBytes) {
        mergePiece(piece, out);
        return;
    }
    {
        std::lock_guard lock(m_d->cacheMutex);
        const auto it = m_d->cache.find(piece);
        if (it != m_d->cache.end()) {
            out.insert(out.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    const std::size_t first = out.size();
    mergePiece(piece, out);
    std::vector<TokenId> ids(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
    std::lock_guard lock(m_d->cacheMutex);
    if (m_d->cache.size() >= kCacheMaxEntries)
        m_d->cache.clear(); // crude but bounded; hit rates recover within a few KB of text
    m_d->cache.emplace(std::string(piece), std::move(ids));
}

void BpeTokenizer::mergePiece(std::string_view piece, std::vector<TokenId> &out) const
{
    const Impl &d = *m_d;
    const std::size_t n = piece.size();
    if (n <= kSmallPiece) {
        // Quadratic scan: symbols and the rank of each adjacent pair; merge the lowest rank
        // (leftmost on ties) until no pair merges.
        std::array<TokenId, kSmallPiece> sym;
        std::array<const MergeTable::Entry *, kSmallPiece> pair;
        std::size_t len = n;
        for (std::size_t i = 0; i < n; ++i)
            sym[i] = d.byteIds[static_cast<unsigned char>(piece[i])];
        for (std::size_t i = 0; i + 1 < n; ++i)
            pair[i] = d.merges.find(sym[i], sym[i + 1]);
        while (len > 1) {
            std::size_t best = len;
            std::uint32_t bestRank = kNoRank;
            for (std::size_t i = 0; i + 1 < len; ++i) {
                if (pair[i] && pair[i]->rank < bestRank) {
                    bestRank = pair[i]->rank;
                    best = i;
                }
            }
            if (best == len)
                break;
            sym[best] = pair[best]->id;
            for (std::size_t i = best + 1; i + 1 < len; ++i) {
                sym[i] = sym[i + 1];
                pair[i] = pair[i + 1];
            }
            --len;
            if (best > 0)
                pair[best - 1] = d.merges.find(sym[best - 1], sym[best]);
            if (best + 1 < len)
                pair[best] = d.merges.find(sym[best], sym[best + 1]);
        }
        out.insert(out.end(), sym.begin(), sym.begin() + static_cast<std::ptrdiff_t>(len));
        return;
    }

    // Long pieces (whitespace runs, base64, minified code): linked list + min-heap keyed by
    // (rank, position) with lazy invalidation — O(n log n).
    struct Cand {
        std::uint32_t rank;
        std::uint32_t pos;
        TokenId left;
        TokenId right;
        bool operator>(const Cand &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    std::vector<TokenId> sym(n);
    std::vector<std::uint32_t> prev(n), next(n);
    std::vector<char> alive(n, 1);
    for (std::size_t i = 0; i < n; ++i) {
        sym[i] = d.byteIds[static_cast<unsigned char>(piece[i])];
        prev[i] = static_cast<std::uint32_t>(i) - 1; // wraps for i = 0: never read
        next[i] = static_cast<std::uint32_t>(i + 1);
    }
    std::priority_queue<Cand, std::vector<Cand>, std::greater<>> heap;
    const auto push = [&](std::uint32_t l) {
        const std::uint32_t r = next[l];
        if (r >= n)
            return;
        if (const MergeTable::Entry *e = d.merges.find(sym[l], sym[r]))
            heap.push(Cand{e->rank, l, sym[l], sym[r]});
    };
    for (std::uint32_t i = 0; i + 1 < n; ++i)
        push(i);
    while (!heap.empty()) {
        const Cand c = heap.top();
        heap.pop();
        const std::uint32_t l = c.pos;
        if (!alive[l] || next[l] >= n)
            continue;
        const std::uint32_t r = next[l];
        if (sym[l] != c.left || sym[r] != c.right)
            continue;
        const MergeTable::Entry *e = d.merges.find(sym[l], sym[r]);
        sym[l] = e->id;
        alive[r] = 0;
        next[l] = next[r];
        if (next[l] < n)
            prev[next[l]] = l;
        if (l > 0 && alive[l]) {
            // Find the live predecessor: prev links are kept up to date for live nodes.
            const std::uint32_t p = prev[l];
            if (p < n)
                push(p);
        }
        push(l);
    }
    for (std::uint32_t i = 0; i < n; i = next[i])
        out.push_back(sym[i]);
}

} // namespace Throughline
