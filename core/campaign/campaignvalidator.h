#pragma once
// Validates a campaign document and reports EVERY problem at once, each with a JSON pointer,
// line, column and message: syntax, schema version, unknown members, types, ranges, unknown
// catalog names (with "did you mean"), duplicates, bad or dead globs, endpoint URLs, literal
// secrets (refused, never echoed), empty matrix, context overflow. Pure computation.

#include "core/campaign/campaign.h"
#include "core/campaign/validationproblem.h"

#include <optional>
#include <string>
#include <string_view>

namespace Throughline {

class Catalog;

class CampaignValidator
{
public:
    struct Outcome {
        std::optional<Campaign> campaign; // set when the document decoded (even with semantic problems)
        ValidationProblems problems;      // sorted by line, then column
        bool ok() const { return problems.empty(); }
    };

    explicit CampaignValidator(const Catalog &catalog);
    CampaignValidator();

    // baseDir: folder of the campaign file, to check a relative targets file ("" skips that check).
    Outcome validate(std::string_view text, const std::string &baseDir = {}) const;

private:
    const Catalog &m_catalog;
};

} // namespace Throughline
