/* server.h -- the line server's interface, plain C declarations. */
int serve(int fd);
unsigned checksum(const char *text);
