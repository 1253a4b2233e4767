#pragma once
// A simulated endpoint may run time-scaled (scale 0.5 = twice as fast as the modelled server). Records and
// telemetry are measured on the wall clock and converted here to model time before any metric sees them,
// so results read as if the modelled hardware had served them.

#include "core/engine/requestrecord.h"
#include "core/telemetry/telemetrysnapshot.h"

namespace Throughline {

// Every timestamp of the record (and its events, curl timings) × scale; kNoTime stays kNoTime.
void toModelTime(RequestRecord &r, double scale);

// Times × scale, rates (unit "…/s") ÷ scale, durations the server measured ("s", "ms") × scale. The
// scraper's own series (scrape_up, scrape_duration_ms) describe the client and stay as they are.
void toModelTime(TelemetrySnapshot &snap, double scale);

} // namespace Throughline
