#pragma once
// Fast path of classifySseEvent: one validating pass over the JSON text that reads only the fields the
// content-event rule needs, without building a document (a DOM parse was most of the client's CPU per event
// at 16,384 streams). It answers only when it is sure: anything unusual (error events, text capture, escaped
// keys, very deep nesting, anything it cannot validate) returns false and the caller takes the DOM path,
// so both paths classify every input identically (tests/core/engine/tst_ssefastclassifier.cpp checks that).

#include "core/engine/sseevent.h"

#include <string_view>

namespace Throughline {

// Returns true and fills info when the event could be classified here; false = use the DOM path.
bool classifySseEventFast(std::string_view data, SseEventInfo &info);

} // namespace Throughline
