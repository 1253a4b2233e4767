#pragma once
// Test support: the shipped demo campaign (:/campaigns/demo.json, compiled into throughline_core) read and
// expanded, for tests that start from a realistic scenario and then adjust endpoint, plan and lengths.
// Header-only; every failure comes back as an Error naming the step, for QVERIFY2:
//
//     auto demo = TestSupport::firstDemoScenario();
//     QVERIFY2(demo.ok(), TestSupport::errorText(demo));
//     m_chat = *demo;
#include "core/campaign/campaign.h"
#include "core/campaign/campaignjson.h"
#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenario.h"
#include "core/util/result.h"

#include <string>
#include <utility>
#include <vector>

namespace Throughline::TestSupport {

inline constexpr const char *kDemoCampaign = ":/campaigns/demo.json";

// Message for QVERIFY2(r.ok(), errorText(r)): empty when `r` holds a value. Valid as long as `r` is.
template <typename T>
const char *errorText(const Result<T> &r)
{
    return r.ok() ? "" : r.error().message.c_str();
}

// The errors of CampaignJson::readFile already name the file (and line/column for bad JSON).
inline Result<Campaign> demoCampaign()
{
    return CampaignJson::readFile(kDemoCampaign);
}

// Every scenario of the demo campaign, in expansion order (never empty on success).
inline Result<std::vector<Scenario>> demoScenarios()
{
    auto campaign = demoCampaign();
    if (!campaign)
        return campaign.error();
    auto list = MatrixExpander().expand(*campaign);
    if (!list)
        return makeError(list.error().code,
                         std::string(kDemoCampaign) + ": expanding the matrix: " + list.error().message);
    if (list->empty())
        return makeError(ErrorCode::Internal, std::string(kDemoCampaign) + " expands to no scenario");
    return list;
}

// The first scenario of the demo (chat, closed loop): the usual base of engine and workload tests.
inline Result<Scenario> firstDemoScenario()
{
    auto list = demoScenarios();
    if (!list)
        return list.error();
    return std::move(list->front());
}

} // namespace Throughline::TestSupport
