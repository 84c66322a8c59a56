/* dumpsig.h -- shared by every backend: RIP_DUMP_SIGNAL, the signal that
 * prints the task dump (rip_dump_tasks) from the scheduler. */
#ifndef RIP_DUMPSIG_H
#define RIP_DUMPSIG_H

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "fatal.h"

/* RIP_DUMP_SIGNAL's number (SIGQUIT, QUIT or 3), or 0 when unset; a value
 * that names no signal the runtime can catch is fatal. */
static inline int rip__dump_signal_env(void) {
    static const struct { const char *name; int sig; } names[] = {
        { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
        { "INT", SIGINT }, { "TERM", SIGTERM }, { "WINCH", SIGWINCH }, { "PWR", SIGPWR },
        { "URG", SIGURG }, { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
    };
    const char *v = getenv("RIP_DUMP_SIGNAL");
    char *end;
    if (!v || !*v)
        return 0;
    long n = strtol(v, &end, 10);
    if (!*end && n > 0 && n < NSIG && n != SIGKILL && n != SIGSTOP)
        return (int)n;
    const char *name = strncmp(v, "SIG", 3) == 0 ? v + 3 : v;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].sig;
    rip__fatal("RIP_DUMP_SIGNAL=%s: not a signal this runtime can dump on (a name such as "
               "SIGQUIT or SIGUSR1, or a number)", v);
}

/* Install `handler` for RIP_DUMP_SIGNAL with `act` (sigaction, or the
 * runtime's way past POSIX mode's wrapper): its number, or 0 when unset. */
static inline int rip__dump_signal_install(void (*handler)(int),
                                           int (*act)(int, const struct sigaction *,
                                                      struct sigaction *)) {
    int sig = rip__dump_signal_env();
    if (!sig)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;       /* the program's calls go on */
    sigemptyset(&sa.sa_mask);
    if (act(sig, &sa, NULL) == -1)
        rip__fatal("RIP_DUMP_SIGNAL: sigaction: %s", strerror(errno));
    return sig;
}

#endif
