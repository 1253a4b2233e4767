// throughline-cli: placeholder main; the dispatcher arrives with the campaign work.
#include "core/util/version.h"

#include <cstdio>

int main()
{
    std::printf("%s\n", Throughline::versionLine().c_str());
    return 0;
}
