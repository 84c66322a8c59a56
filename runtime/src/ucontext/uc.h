/* uc.h -- private interface of the ucontext backend. */
#ifndef RIP_UC_H
#define RIP_UC_H

#include <signal.h>

void rip__uc_park(void);           /* switch to the scheduler until woken */
void rip__uc_mask_changed(const sigset_t *mask); /* the program set the thread's signal mask: every context switched to takes it (swapcontext would restore its own) */
void rip__uc_exit(void) __attribute__((noreturn)); /* end the current task here (pthread_exit) */

#endif
