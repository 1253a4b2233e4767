#pragma once
// The campaign hash — one definition for results.json `campaign.sha256`, the run plan id, the provenance and
// the history's campaigns table: SHA-256 (lowercase hex) of the campaign's canonical text,
// CampaignJson::write(campaign). The CLI (a file) and the desktop app (the designer's document) therefore
// give the same campaign the same hash, whatever the file's formatting; both store that canonical text.

#include "core/campaign/campaign.h"

#include <string>
#include <string_view>

namespace Throughline {

// CampaignJson::write(campaign): the text both apps store and hash.
std::string canonicalCampaignText(const Campaign &campaign);
// SHA-256 hex of a campaign text (storage keys the campaigns table on it).
std::string campaignSha256(std::string_view canonicalText);

} // namespace Throughline
