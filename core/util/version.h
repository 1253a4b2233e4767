#pragma once
// Tool version and git SHA baked in at configure time; recorded in every run's provenance.

#include <string>

namespace Throughline {

std::string toolVersion(); // e.g. "0.1.0"
std::string gitSha();      // short SHA, or "unknown" outside a checkout
std::string versionLine(); // "throughline 0.1.0 (abc123def456)"

} // namespace Throughline
