#pragma once
// QString-facing bridge to core/campaign/campaignjson.h (file read/write) for the UI. Reads also
// accept Qt resource paths (":/campaigns/demo.json"). Any thread (pure functions).

#include "core/campaign/campaign.h"
#include "core/util/result.h"

#include <QString>

namespace Throughline::CampaignIo {

Result<Campaign> read(const QString &path);
Status write(const Campaign &campaign, const QString &path);

} // namespace Throughline::CampaignIo
