/* rip_private.h -- the rip backend's own names for the frame ABI
 * (rip_frame.h spells it in the reserved rip__ space for ripped code),
 * and the constructors of the runtime's async functions, which ripped
 * code declares itself from rip.h. */
#ifndef RIP_PRIVATE_H
#define RIP_PRIVATE_H

#include "rip_frame.h"             /* first: RIP_RIPPED shapes rip.h */
#include "rip.h"

typedef struct rip__frame rip_frame;
typedef int rip_resume_fn(rip_frame *self, rip_frame *done); /* 1: returned, 0: suspended */
typedef struct rip__wait rip_wait;
#define RIP_WAITS rip__waits

/* Constructors of the runtime's async functions, called when ripped code
 * calls them through a pointer (direct calls of the four intrinsics are
 * inlined: rip_frame.h). */
rip_frame *rip__new_rip_yield(void);
rip_frame *rip__new_rip_sleep_ms(int64_t ms);
rip_frame *rip__new_rip_read(int fd, void *buf, size_t len);
rip_frame *rip__new_rip_write(int fd, const void *buf, size_t len);
rip_frame *rip__new_rip_accept(int fd, struct sockaddr *addr, socklen_t *len);
rip_frame *rip__new_rip_connect(int fd, const struct sockaddr *addr, socklen_t len);
rip_frame *rip__new_rip_chan_send(rip_chan *c, const void *elem);
rip_frame *rip__new_rip_chan_recv(rip_chan *c, void *elem);
rip_frame *rip__new_rip_wg_wait(rip_wg *wg);
rip_frame *rip__new_rip_offload(void *(*fn)(void *), void *arg);
rip_frame *rip__new_rip_poll(struct pollfd *fds, nfds_t n, int timeout_ms);
rip_frame *rip__new_rip_chan_select(rip_chan_case *cases, int n, int timeout_ms);

rip_frame *rip__task_first_frame(struct rip__task *t); /* t's first frame, the outermost (sched.c) */
/* A runtime async function's frame, for rip_dump_tasks: listed, not printed. */
#define RIP__RUNTIME_FRAME(resume, name_)                                    \
    static const struct rip__fninfo resume##_info                            \
        __attribute__((used, aligned(8), section(RIP__FNINFO_SECTION))) = { resume, name_, 0, 0, 0 }
void rip__task_exit(rip_frame *innermost);   /* end the current task from its innermost frame, every frame suspended (sched.c) */
void rip__task_gone(void) __attribute__((noreturn)); /* end the current task from plain code: its linked frames freed, back to the scheduler loop that ran it (sched.c) */

#endif /* RIP_PRIVATE_H */
