#pragma once
// Facts about the client machine recorded with every run: host name, CPU model, cores, kernel, OS.

#include <nlohmann/json.hpp>

namespace Throughline {

nlohmann::json hostProvenance();

} // namespace Throughline
