#pragma once
// Streams selected regular files out of a .tar.gz (npm package tarballs: ustar, possibly with pax
// headers) using zlib; no external `tar` needed. Pure function, thread-safe.

#include "core/util/result.h"

#include <map>
#include <string>

namespace Throughline {

class TarGzExtractor
{
public:
    // wanted: path inside the archive → destination file. Each destination is written to
    // "<dest>.part" and renamed when complete. Errors name the archive and the member; a wanted
    // member that is absent is an error (NotFound).
    static Status extract(const std::string &archive, const std::map<std::string, std::string> &wanted);
};

} // namespace Throughline
