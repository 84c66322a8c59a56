/* rip_frame_all_async.h -- rip_frame.h as ripper --all-async includes it
 * first: the same ABI, with the helpers of a ripped call out of line (see
 * RIP__CALL_HELPER there).  The macro is gone after it, so the user's code
 * never sees it. */
#define RIP__ALL_ASYNC 1
#include "rip_frame.h"
#undef RIP__ALL_ASYNC
