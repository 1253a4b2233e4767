// throughline-sim: the simulated OpenAI-compatible endpoint as a process (placeholder until issue 3).
#include "core/util/version.h"

#include <cstdio>

int main()
{
    std::printf("%s\n", Throughline::versionLine().c_str());
    return 0;
}
