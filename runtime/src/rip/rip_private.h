/* rip_private.h -- the rip backend's own names for the frame ABI
 * (rip_frame.h spells it in the reserved rip__ space for ripped code),
 * and the constructors of the runtime's async functions, which ripped
 * code declares itself from rip.h. */
#ifndef RIP_PRIVATE_H
#define RIP_PRIVATE_H

#include "rip_frame.h"             /* first: RIP_RIPPED shapes rip.h */
#include "rip.h"

typedef struct rip_frame rip_frame;
typedef int rip_resume_fn(rip_frame *self, rip_frame *done); /* 1: returned, 0: suspended */
typedef struct rip__wait rip_wait;
#define RIP_WAITS rip__waits

/* Constructors of the runtime's async functions, called when ripped code
 * calls them through a pointer (direct calls of the four intrinsics are
 * inlined: rip_frame.h). */
rip_frame *rip_yield__rip(void);
rip_frame *rip_sleep_ms__rip(int64_t ms);
rip_frame *rip_read__rip(int fd, void *buf, size_t len);
rip_frame *rip_write__rip(int fd, const void *buf, size_t len);
rip_frame *rip_accept__rip(int fd, struct sockaddr *addr, socklen_t *len);
rip_frame *rip_connect__rip(int fd, const struct sockaddr *addr, socklen_t len);
rip_frame *rip_chan_send__rip(rip_chan *c, const void *elem);
rip_frame *rip_chan_recv__rip(rip_chan *c, void *elem);
rip_frame *rip_wg_wait__rip(rip_wg *wg);
rip_frame *rip_offload__rip(void *(*fn)(void *), void *arg);

#endif /* RIP_PRIVATE_H */
