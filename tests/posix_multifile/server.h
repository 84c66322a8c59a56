/* server.h -- the line server's interface, plain C declarations. */
int serve(int fd);
unsigned checksum(const char *text);
extern char served[4096];          /* what serve answered, for main to print */
