#pragma once
// Fault injection plan of the simulated endpoint: per-request probabilities, decided with a seeded RNG.
// Text form (CLI --faults, SimulatorOptions::faults): comma-separated `name=probability[:seconds]`, e.g.
//   "http500=0.01,http503=0.01,http429=0.005,disconnect=0.01,error_event=0.01,stall=0.01:5,malformed=0.01,
//    slow_first_byte=0.02:1.5"

#include "core/util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace Throughline {

enum class FaultKind {
    None,
    Http500,
    Http503,
    Http429,
    Disconnect,
    ErrorEvent,
    Stall,
    Malformed,
    SlowFirstByte
};

const char *faultName(FaultKind k);

struct FaultSpec {
    double http500 = 0;
    double http503 = 0;
    double http429 = 0;
    double disconnect = 0; // close the connection mid-stream
    double errorEvent = 0; // mid-stream `data: {"error":…}` event, then [DONE]
    double stall = 0;      // no bytes for stallS mid-stream
    double stallS = 5;
    double malformed = 0;     // one malformed SSE line mid-stream
    double slowFirstByte = 0; // response headers delayed by slowFirstByteS
    double slowFirstByteS = 2;

    bool any() const;
    // Picks at most one fault for a request from a uniform draw u in [0, 1).
    FaultKind pick(double u) const;
    std::string toString() const;
    static Result<FaultSpec> parse(std::string_view text);
    bool operator==(const FaultSpec &) const = default;
};

} // namespace Throughline
