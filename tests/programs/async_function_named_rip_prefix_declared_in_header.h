/* async_function_named_rip_prefix_declared_in_header.c's header: the only declaration before the call */
#include <rip.h>
RIP_ASYNC int rip_twice(int v);
