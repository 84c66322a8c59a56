/* nonblock.h -- shared by every backend's fd calls. */
#ifndef RIP_NONBLOCK_H
#define RIP_NONBLOCK_H

#include <fcntl.h>

/* Put fd in O_NONBLOCK mode (a no-op if it is already): 0, or -1 and errno. */
static inline int rip__set_nonblocking(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1)
        return -1;
    return (fl & O_NONBLOCK) || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != -1 ? 0 : -1;
}

#endif
