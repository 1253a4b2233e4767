#pragma once
// Where the history database lives: `--db PATH`, else env THROUGHLINE_DB, else
// QStandardPaths::writableLocation(AppDataLocation)/history.sqlite (org "Throughline", app "throughline").

#include <string>

namespace Throughline {

class HistoryPath
{
public:
    // cliOverride: value of --db ("" when absent). Creates the default directory when needed.
    static std::string resolve(const std::string &cliOverride = {});
    static std::string defaultPath();
};

} // namespace Throughline
