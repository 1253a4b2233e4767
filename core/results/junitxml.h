#pragma once
// JUnit XML for CI (`run --junit FILE`): one testsuite per campaign run, one testcase per scenario.
// fail → <failure>, invalid → <error>, no_target → <skipped>, pass → plain testcase.
// Each testcase's <system-out> lists the checks and the operating point.

#include "core/results/resultsjson.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {

std::string junitXml(const RunResults &run);
Status writeJUnitXml(const RunResults &run, const std::string &path);

} // namespace Throughline
