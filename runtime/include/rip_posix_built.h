/* rip_posix_built.h -- included (-include) by `ripcc --posix` into each
 * file it compiles for ucontext, whose blocking calls only the link turns
 * into the runtime's (-Wl,--wrap): the object says so, and ripcc refuses
 * to link it without --posix (its calls would block the scheduler). */
static const char rip__built_posix __attribute__((used, unused)) = 0;
