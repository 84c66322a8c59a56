#include "rip.h"

RIP_ASYNC int count_to(int n);   /* async: it yields, in another file */
double root(double x);           /* plain, from libextra.a */
