#include "rip.h"
/* A struct parameter and result by value: the parameter is copied into
   the frame, the result read from the finished callee's frame. */
struct point { int x, y; };
RIP_ASYNC struct point moved(struct point p, int dx) { rip_yield(); p.x += dx; return p; }
int far(struct point p) { struct point q = moved(p, 3); return q.x + q.y; }
