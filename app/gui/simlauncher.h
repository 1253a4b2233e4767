#pragma once
// Starts the built-in simulated endpoint for a scenario, in process (SimServer on 127.0.0.1, an
// ephemeral port). Lives in app/ because throughline_ui must not link throughline_sim: the app
// wires it into the run page, and the GUI tests compile this file too.

#include "core/engine/runcontroller.h"

namespace Throughline {

SimLauncher makeInProcessSimLauncher();

} // namespace Throughline
