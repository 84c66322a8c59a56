"""What the ripped build guarantees beyond C: where C leaves the order of
evaluation open, ripper goes left to right."""
from conftest import run

PROGRAM = b"""#include <stdio.h>
#include "rip.h"
static void say(int v) { printf("%d ", v); }
RIP_ASYNC static int val(int v) { rip_yield(); say(v); return v; }
static int plain(int v) { say(100 + v); return v; }
static void task(void *arg) {
    int y;
    (void)arg;
    y = plain(val(6)) - val(val(2));
    printf("| %d\\n", y);
    printf("| %d %d %d\\n", plain(1), val(2), plain(3));
}
int main(void) { return rip_run(task, 0); }
"""


def test_rip_evaluates_operands_left_to_right(tmp_path, ripcc):
    src = tmp_path / "order.c"
    src.write_bytes(PROGRAM)
    out = run([ripcc(str(src), "rip")]).stdout.decode().splitlines()
    assert out[0] == "6 106 2 2 | 4"
    assert out[1] == "101 2 103 | 1 2 3"
