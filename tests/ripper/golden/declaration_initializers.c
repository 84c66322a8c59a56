#include "rip.h"
RIP_ASYNC int f(int);
int g(int);
struct bits { unsigned low : 3, high : 5; };
/* Declarators in order; a name in its own initializer means the new variable. */
struct node { struct node *next; long v; };
RIP_ASYNC void *alloc(unsigned long);
long form(int x) { int a = g(x), b = f(a); struct node *p = alloc(sizeof *p); p->v = a + b; return p->v; }
