/* weft_syncthreads(), alone in its file: weft cc links this file only into programs that call
 * it, as a linker takes a member of an archive (`--start-lib`), so that the runtime can tell
 * from a weak reference (__weft_has_barriers, weft_internal.h) that no thread of a program can
 * wait at a block barrier: its blocks larger than the core then run without fibers. */
#define WEFT_SYNC_C
#include "weft.h"
#include "weft_internal.h"

void weft_syncthreads(void) {
    weft_thread *t = weft_self();
    if (!t->in_kernel) return;
    if (t->slot_warps == 0)
        __weft_fiber_sync(); /* a block larger than the core */
    else
        weft_barrier(t->slot, t->slot_warps);
}
