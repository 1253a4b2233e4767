#include "core/workload/exactwords.h"

#include "core/engine/tokenizerpromptsource.h"
#include "core/tokenizer/tokenizerstore.h"
#include "core/workload/wordtext.h"

#include <algorithm>

namespace Throughline {

namespace {

constexpr std::size_t kMaxWords = 8192; // plenty of variety; keeps construction at a few ms

bool wordToken(std::string_view bytes)
{
    if (bytes.size() < 3 || bytes.front() != ' ')
        return false;
    return std::all_of(bytes.begin() + 1, bytes.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

// Removes the last filler word (" " + ASCII letters) of text; false when text does not end in one.
bool dropLastWord(std::string &text)
{
    std::size_t i = text.size();
    while (i > 0 &&
           ((text[i - 1] >= 'a' && text[i - 1] <= 'z') || (text[i - 1] >= 'A' && text[i - 1] <= 'Z')))
        --i;
    if (i == text.size() || i == 0 || text[i - 1] != ' ')
        return false;
    text.resize(i - 1);
    return true;
}

} // namespace

std::shared_ptr<const ExactWords> ExactWords::forScenario(const Scenario &sc)
{
    auto store = TokenizerStore::open();
    if (!store)
        return nullptr;
    auto tok = store->load(sc.model.name);
    if (!tok)
        return nullptr;
    std::optional<ChatTemplate> chat;
    if (sc.endpoint.flavour == ApiFlavour::Chat)
        chat = chatTemplateFor(sc, **tok).tpl;
    auto words = std::make_shared<const ExactWords>(*tok, std::move(chat));
    return words->usable() ? words : nullptr;
}

ExactWords::ExactWords(std::shared_ptr<const BpeTokenizer> tokenizer, std::optional<ChatTemplate> chat)
    : m_tok(std::move(tokenizer))
    , m_chat(std::move(chat))
{
    for (const TokenId id : m_tok->ordinaryIds()) {
        const std::string_view bytes = m_tok->tokenBytes(id);
        if (!wordToken(bytes))
            continue;
        const std::vector<TokenId> ids = m_tok->encode(bytes);
        if (ids.size() == 1 && ids[0] == id)
            m_words.push_back(id);
        if (m_words.size() >= kMaxWords)
            break;
    }
    if (m_chat)
        m_overhead = m_chat->count(*m_tok, {ChatMessage{"user", {}}});
}

void ExactWords::append(Prompt &out, std::uint64_t key, int n) const
{
    std::uint64_t state = WordText::mix(key ^ 0x2545f4914f6cdd1dULL);
    for (int i = 0; i < n; ++i) {
        state = WordText::mix(state);
        const TokenId id = m_words[state % m_words.size()];
        out.text += m_tok->tokenBytes(id);
        out.tokenIds.push_back(id);
    }
    out.tokens += std::max(n, 0);
}

int ExactWords::count(const std::string &text) const
{
    if (m_chat)
        return m_chat->count(*m_tok, {ChatMessage{"user", text}});
    return static_cast<int>(m_tok->count(text));
}

int ExactWords::count(const Prompt &p) const
{
    if (!m_chat || p.earlier.empty())
        return count(p.text);
    std::vector<ChatMessage> messages = p.earlier;
    messages.push_back(ChatMessage{"user", p.text});
    return m_chat->count(*m_tok, messages);
}

int ExactWords::countHistory(const std::vector<ChatMessage> &messages) const
{
    return m_chat ? m_chat->count(*m_tok, messages, false) : 0;
}

bool ExactWords::fit(Prompt &p, int target, std::uint64_t key) const
{
    for (int round = 0; round < 8; ++round) {
        std::vector<TokenId> ids;
        int c = 0;
        if (m_chat) {
            c = count(p);
        } else {
            ids = m_tok->encode(p.text);
            c = static_cast<int>(ids.size());
        }
        if (c == target) {
            p.tokens = target;
            p.exact = true;
            p.tokenIds = m_chat ? std::vector<int>{} : std::vector<int>(ids.begin(), ids.end());
            return true;
        }
        if (c > target) {
            bool dropped = true;
            for (int i = 0; i < c - target && dropped; ++i)
                dropped = dropLastWord(p.text);
            if (!dropped)
                break;
        } else {
            Prompt more;
            append(more, WordText::mix(key + static_cast<std::uint64_t>(round)), target - c);
            p.text += more.text;
        }
    }
    // Not reachable exactly: say what the server will count.
    p.tokens = count(p);
    p.exact = false;
    if (!m_chat) {
        const std::vector<TokenId> ids = m_tok->encode(p.text);
        p.tokenIds.assign(ids.begin(), ids.end());
    } else {
        p.tokenIds.clear();
    }
    return false;
}

} // namespace Throughline
