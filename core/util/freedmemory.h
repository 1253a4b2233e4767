#pragma once
// Hands memory the process freed back to the operating system. glibc keeps freed heap pages in its arenas
// (one per thread that allocated, so every worker has its own): after a long point's records are released,
// RSS would stay at the largest point's level although the heap is small again. malloc_trim walks every
// arena and returns their free pages (madvise); elsewhere this does nothing.
// Thread affinity: any thread; takes each arena's lock in turn (a few ms on a large heap), so call it between
// points, not per request.

namespace Throughline {

void returnFreedMemory();

} // namespace Throughline
