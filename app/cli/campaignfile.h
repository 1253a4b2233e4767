#pragma once
// Shared by validate, expand and (later) run: read a campaign file, validate it, print every
// problem as "FILE:LINE:COL: /pointer: message" (stderr; --json: also as JSON on stdout).

#include "command.h"

#include "core/campaign/campaignvalidator.h"

#include <QString>

#include <optional>

namespace Throughline::Cli {

struct LoadedCampaign {
    QString path;
    CampaignValidator::Outcome outcome;
};

// nullopt when the file cannot be read (message printed; exit code 2).
std::optional<LoadedCampaign> loadCampaignFile(const Context &ctx, const QString &path);
// Prints the problems on stderr; returns their count.
int printProblems(const Context &ctx, const LoadedCampaign &loaded);
nlohmann::json problemsJson(const LoadedCampaign &loaded);

} // namespace Throughline::Cli
