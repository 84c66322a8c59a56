/* san.h -- hints for AddressSanitizer (make SAN=1), empty otherwise: the
 * frame pool poisons the blocks it holds, and the ucontext backend tells
 * ASan about every switch between stacks. */
#ifndef RIP_SAN_H
#define RIP_SAN_H

#if defined(__SANITIZE_ADDRESS__)
#define RIP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIP_ASAN 1
#endif
#endif

#ifdef RIP_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define RIP_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))     /* a use of p[0..n) is an error */
#define RIP_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n)) /* p[0..n) is usable again */
#else
#define RIP_POISON(p, n) ((void)(p), (void)(n))
#define RIP_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif
