#pragma once
// The client's side of a request, as the breakdown needs it, from the engine's RequestRecord.

#include "core/engine/requestrecord.h"
#include "core/servertiming/requestbreakdown.h"

#include <string>
#include <vector>

namespace Throughline {

// requestId = <runId>-<seq>, the X-Request-Id the request carried.
ClientTimes clientTimesOf(const RequestRecord &record, const std::string &runId);
std::vector<ClientTimes> clientTimesOf(const std::vector<RequestRecord> &records, const std::string &runId);

} // namespace Throughline
