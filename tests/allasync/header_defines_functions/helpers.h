/* header_defines_functions: functions defined in a header */
int base(void);

static int plus_base(int v)
{
    return v + base();
}

static inline int square(int v)
{
    return v * v;
}
