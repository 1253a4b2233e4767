#include "core/util/version.h"

namespace Throughline {

std::string toolVersion()
{
    return THROUGHLINE_VERSION;
}

std::string gitSha()
{
    return THROUGHLINE_GIT_SHA;
}

std::string versionLine()
{
    return "throughline " + toolVersion() + " (" + gitSha() + ")";
}

} // namespace Throughline
