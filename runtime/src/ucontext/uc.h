/* uc.h -- private interface of the ucontext backend. */
#ifndef RIP_UC_H
#define RIP_UC_H

void rip__uc_park(void);           /* switch to the scheduler until woken */
void rip__uc_exit(void) __attribute__((noreturn)); /* end the current task here (pthread_exit) */

#endif
