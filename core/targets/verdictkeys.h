#pragma once
// The inverse of verdictStatusKey: a stored or printed verdict key back to its status, for the readers of
// results.json, the history and merge reports (one place for the five keys).

#include "core/targets/verdict.h"

#include <optional>
#include <string_view>

namespace Throughline {

// nullopt for an unknown key (and for "", a scenario without a verdict).
std::optional<Verdict::Status> verdictStatusFromKey(std::string_view key);

} // namespace Throughline
