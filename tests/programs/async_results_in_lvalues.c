/* checks: async calls inside lvalues and postfix expressions: *slot(i) = v, a[f(i)] = v, f().field, g()->field, async index on the right, and ++ through a returned pointer */
#include <stdio.h>
#include <rip.h>

struct rec {
    int id;
    int vals[3];
};

static int table[5];
static struct rec records[2] = { { 1, { 10, 11, 12 } }, { 2, { 20, 21, 22 } } };

RIP_ASYNC static int *slot(int i)
{
    rip_yield();
    return &table[i];
}

RIP_ASYNC static int f(int i)
{
    rip_yield();
    return i;
}

RIP_ASYNC static struct rec rec_copy(int i)
{
    rip_sleep_ms(1);
    return records[i];
}

RIP_ASYNC static struct rec *rec_ptr(int i)
{
    rip_yield();
    return &records[i];
}

static void root(void *arg)
{
    int local[4] = { 0, 0, 0, 0 };
    (void)arg;
    *slot(1) = 7;
    *slot(2) += 5;
    (*slot(2))++;
    ++*slot(3);
    local[f(2)] = 9;
    local[f(3)] = local[f(2)] * 2;
    printf("table = %d %d %d %d %d\n", table[0], table[1], table[2], table[3], table[4]);
    printf("local = %d %d %d %d\n", local[0], local[1], local[2], local[3]);
    printf("rec_copy(1).id = %d, .vals[2] = %d\n", rec_copy(1).id, rec_copy(1).vals[2]);
    rec_ptr(0)->vals[f(1)] = 99;
    rec_ptr(1)->id *= f(3);
    printf("records[0].vals = %d %d %d, records[1].id = %d\n", records[0].vals[0],
           records[0].vals[1], records[0].vals[2], records[1].id);
    int v = table[f(1)] + rec_ptr(0)->vals[1];
    printf("table[f(1)] + rec_ptr(0)->vals[1] = %d\n", v);
}

int main(void)
{
    return rip_run(root, NULL);
}
