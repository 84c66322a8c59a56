#include <math.h>

double root(double x) { return sqrt(x); }
