#pragma once
// Run bundles (NAME.tlrun): a SQLite file with the history schema holding exactly one run.
// Blocking file operations; call from a worker thread or the CLI.

#include "core/util/result.h"

#include <string>

namespace Throughline {

class RunBundle
{
public:
    static constexpr const char *kFormat = "throughline.tlrun/1";

    // Writes the run `uuid` of the history database into a new bundle at bundlePath (replaced if present).
    static Status exportRun(const std::string &historyPath, const std::string &uuid,
                            const std::string &bundlePath);
    // Copies the bundle's run into the history database in one transaction. Returns the run uuid.
    // A run already in history is refused (ErrorCode::InvalidInput) and nothing changes.
    static Result<std::string> importBundle(const std::string &bundlePath, const std::string &historyPath);
    // Checks that the file is a bundle (schema, exactly one run); returns its run uuid.
    static Result<std::string> runUuid(const std::string &bundlePath);
    // True when the file starts with the SQLite header (cheap format sniffing).
    static bool looksLikeSqlite(const std::string &path);
    // Creates an empty bundle file (schema + marker), replacing any file at path.
    static Status createEmpty(const std::string &bundlePath);
    // Sets a finished bundle to rollback-journal mode so it is one self-contained file.
    static Status finalize(const std::string &bundlePath);
};

} // namespace Throughline
