"""Direct calls of rip_yield, rip_chan_send/recv and rip_wg_wait are inlined
into the caller's resume entry (rip_frame.h's intrinsics): no frame of their
own.  Calls through a pointer still build the primitive's frame with its
constructor; a macro is its expansion, a direct call like any other.  (That both behave the same is
tests/programs/intrinsics_in_odd_positions.c.)"""
from conftest import RIPPER, run

HEAD = b'#include "rip.h"\ntypedef RIP_ASYNC_FN(void, yield_fn, (void));\n'


def rip(body):
    r = run([RIPPER, "-", "-o", "-"], input=HEAD + body)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def test_direct_calls_are_inlined_without_a_frame():
    out = rip(b"static rip_chan *c; static rip_wg *wg;\n"
              b"static void t(void *a) { int v; (void)a; rip_yield();\n"
              b"  v = rip_chan_recv(c, &v); rip_chan_send(c, &v); rip_wg_wait(wg); }\n")
    for entry in ("rip__yield_in(rip__self)", "rip__chan_recv_try(c, &rip__F->v, &rip__F->rip__w)",
                  "rip__chan_send_try(c, &rip__F->v, &rip__F->rip__w)",
                  "rip__wg_wait_try(wg, &rip__F->rip__w)", "rip__wait_in(rip__self)"):
        assert entry in out
    body = out.split("rip__resume_t(struct rip__frame *rip__self, struct rip__frame *rip__c) {")[1]
    assert "rip__new_" not in body and "rip__call" not in body
    assert "struct rip__wait rip__w;" in out       # the one waiter of the frame


def test_a_frame_without_waits_has_no_waiter():
    out = rip(b"static void t(void *a) { (void)a; rip_yield(); }\n")
    frame = out.split("struct rip__frame_t {")[1].split("};")[0]
    assert "rip__yield_in(rip__self)" in out and "rip__w" not in frame


def test_pointers_call_the_constructors_and_macros_are_inlined():
    out = rip(b"#define Y rip_yield()\n"
              b"static void t(void *a) { yield_fn *y = rip_yield; (void)a; y(); Y; }\n")
    body = out.split("rip__resume_t(struct rip__frame *rip__self, struct rip__frame *rip__c) {")[1]
    assert body.count("rip__new_rip_yield") == 1      # the pointer's value
    assert body.count("rip__yield_in") == 1       # the macro's expansion
