#include "core/util/freedmemory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace Throughline {

void returnFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace Throughline
