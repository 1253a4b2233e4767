#pragma once
// API keys: resolved at run time from the endpoint's reference (environment variable or keyring entry),
// held only in memory for the run, never written anywhere. redactSecrets() cleans every text that may leave
// the process (error excerpts, logs, provenance).

#include "core/campaign/endpoint.h"
#include "core/util/result.h"

#include <string>
#include <string_view>

namespace Throughline {

// Empty string when the endpoint references no key. Error when the reference cannot be resolved
// (variable unset/empty, secret-tool missing or entry absent), naming the reference, never a value.
// envOverride: a variable name from the command line (--api-key-env) that replaces the endpoint's.
Result<std::string> resolveApiKey(const Endpoint &endpoint, const std::string &envOverride = {});

// Replaces every occurrence of key (when non-empty and at least 4 characters) and any "Bearer <token>"
// with "***". Case-insensitive for "Bearer".
std::string redactSecrets(std::string_view text, std::string_view key);

} // namespace Throughline
