#pragma once
// Aligning a server's clock to the client's from the requests themselves (docs/server-timing.md): a request
// reaches the server after the client wrote it, and every server emission reaches the client after the
// server made it. With server = offset + (1 + drift) · client, each request gives an upper bound on the line
// at its send time and a lower bound at each receive time. The fit is the line that leaves the widest gap
// between the two sets (the feasible band's centre at the best drift); half that gap is the stated error
// bound. Pure computation; no thread affinity.

#include "core/servertiming/servertiming.h"

#include <span>
#include <string>
#include <vector>

namespace Throughline {

// Client seconds on the run clock; server seconds on the server's own clock. kNoValue where not known.
struct ClockBound {
    double client = kNoValue;
    double server = kNoValue;
};

struct ClockSamples {
    std::vector<ClockBound> upper; // (client send, server arrival): server ≥ line(client send)
    std::vector<ClockBound> lower; // (client receive, server emission): server ≤ line(client receive)
    double resolutionS = 1e-6;     // the server's timestamp resolution (Dynamo: integer ms)
};

struct ClockFit {
    bool valid = false;
    double offsetS = 0;        // server − client at client time 0
    double drift = 0;          // relative rate difference (1e-6 = 1 ppm)
    double boundMs = kNoValue; // half the feasible gap at the fitted drift: ± on every aligned part
    bool consistent = true;    // false: the bounds cross (timestamps inconsistent); bound widened
    int upperSamples = 0;
    int lowerSamples = 0;
    std::string note; // why not valid

    // A server timestamp on the client's run clock (seconds).
    double toClient(double serverS) const { return (serverS - offsetS) / (1.0 + drift); }
    // A server duration in client seconds.
    double durationToClient(double serverS) const { return serverS / (1.0 + drift); }
};

// Drift is searched within ±maxDrift (default 1,000 ppm, far beyond a real oscillator's).
ClockFit fitClock(const ClockSamples &samples, double maxDrift = 1e-3);

} // namespace Throughline
