/* io.h -- line input over read(2), declared as a plain POSIX program
 * declares it: nothing here says that read_line may wait. */
#include <stddef.h>
#include <sys/types.h>

ssize_t read_line(int fd, char *buf, size_t cap);
