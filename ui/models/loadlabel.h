#pragma once
// How the app names a load point, on every page and in the report: "C=16", "2.5 req/s", and for the second
// run of a repeated load (plan.repeats) "C=16 · repeat 2" (translated). The CLI's English counterpart is
// core/metrics/pointlabel.h.

#include "core/metrics/pointresult.h"

#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

QString loadLabel(const PointLoad &load);
// The same from a stored point's config or aggregates JSON ({"load": {…}}); "#<pointIndex>" when it has no
// load.
QString loadLabel(const nlohmann::json &pointJson, int pointIndex);

} // namespace Throughline
