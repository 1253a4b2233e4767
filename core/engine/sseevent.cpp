#include "core/engine/sseevent.h"

#include "core/engine/ssefastclassifier.h"

#include <nlohmann/json.hpp>

namespace Throughline {

namespace {

using nlohmann::json;

// Appends s to out when j[key] is a non-empty string; returns whether it was.
bool nonEmptyString(const json &obj, const char *key, bool wantText, std::string &out)
{
    if (!obj.is_object())
        return false;
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_string())
        return false;
    const auto &s = it->get_ref<const std::string &>();
    if (s.empty())
        return false;
    if (wantText)
        out += s;
    return true;
}

bool functionHasText(const json &fn, bool wantText, std::string &out)
{
    const bool name = nonEmptyString(fn, "name", wantText, out);
    const bool args = nonEmptyString(fn, "arguments", wantText, out);
    return name || args;
}

int intOr(const json &obj, const char *key, int fallback)
{
    if (!obj.is_object())
        return fallback;
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_number())
        return fallback;
    return it->get<int>();
}

void extractUsage(const json &u, SseEventInfo &info)
{
    if (!u.is_object())
        return;
    info.usage.completionTokens = intOr(u, "completion_tokens", -1);
    info.usage.promptTokens = intOr(u, "prompt_tokens", -1);
    if (auto it = u.find("prompt_tokens_details"); it != u.end())
        info.usage.cachedTokens = intOr(*it, "cached_tokens", -1);
    if (auto it = u.find("completion_tokens_details"); it != u.end())
        info.usage.reasoningTokens = intOr(*it, "reasoning_tokens", -1);
    info.hasUsage = info.usage.completionTokens >= 0 || info.usage.promptTokens >= 0;
}

std::string errorText(const json &e)
{
    if (e.is_string())
        return e.get<std::string>();
    if (e.is_object()) {
        if (auto it = e.find("message"); it != e.end() && it->is_string())
            return it->get<std::string>();
    }
    return e.dump();
}

} // namespace

SseEventInfo classifySseEvent(std::string_view data, bool wantText)
{
    SseEventInfo info;
    // [DONE] sentinel, tolerating surrounding whitespace.
    std::string_view trimmed = data;
    while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t'))
        trimmed.remove_prefix(1);
    while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t' || trimmed.back() == '\n'))
        trimmed.remove_suffix(1);
    if (trimmed == "[DONE]") {
        info.kind = StreamEvent::Kind::Done;
        return info;
    }

    // Almost every event is answered by the one-pass scanner; the rest (errors, text capture, odd shapes) by
    // the DOM below, which defines the behaviour.
    if (!wantText && classifySseEventFast(data, info))
        return info;

    json j = json::parse(data.begin(), data.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
        info.malformed = true;
        info.kind = StreamEvent::Kind::Other;
        return info;
    }

    if (auto it = j.find("usage"); it != j.end())
        extractUsage(*it, info);

    if (auto it = j.find("error"); it != j.end() && !it->is_null()) {
        info.kind = StreamEvent::Kind::Error;
        info.errorMessage = errorText(*it);
        return info;
    }
    if (auto it = j.find("object");
        it != j.end() && it->is_string() && it->get_ref<const std::string &>() == "error") {
        info.kind = StreamEvent::Kind::Error;
        info.errorMessage = errorText(j);
        return info;
    }

    auto ch = j.find("choices");
    if (ch == j.end() || !ch->is_array() || ch->empty()) {
        info.kind = info.hasUsage ? StreamEvent::Kind::Usage : StreamEvent::Kind::Other;
        return info;
    }
    const json &c0 = (*ch)[0];
    if (!c0.is_object()) {
        info.kind = StreamEvent::Kind::Other;
        return info;
    }

    bool content = nonEmptyString(c0, "text", wantText, info.text);
    bool hasRole = false;
    if (auto d = c0.find("delta"); d != c0.end() && d->is_object()) {
        content |= nonEmptyString(*d, "content", wantText, info.text);
        content |= nonEmptyString(*d, "reasoning", wantText, info.text);
        content |= nonEmptyString(*d, "reasoning_content", wantText, info.text);
        if (auto tc = d->find("tool_calls"); tc != d->end() && tc->is_array()) {
            for (const json &call : *tc) {
                if (call.is_object()) {
                    if (auto fn = call.find("function"); fn != call.end())
                        content |= functionHasText(*fn, wantText, info.text);
                }
            }
        }
        if (auto fc = d->find("function_call"); fc != d->end())
            content |= functionHasText(*fc, wantText, info.text);
        hasRole = d->contains("role");
    }
    if (content) {
        info.kind = StreamEvent::Kind::Content;
    } else if (hasRole) {
        info.kind = StreamEvent::Kind::RoleOnly;
    } else if (auto fr = c0.find("finish_reason"); fr != c0.end() && fr->is_string()) {
        info.kind = StreamEvent::Kind::Finish;
    } else {
        info.kind = StreamEvent::Kind::Other;
    }
    return info;
}

} // namespace Throughline
